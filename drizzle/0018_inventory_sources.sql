DROP INDEX "zone_records_record";--> statement-breakpoint
CREATE UNIQUE INDEX "zone_records_record" ON "zone_records" USING btree ("domain_id","name","type","data","source");