import type { FindingStatus } from '../../model/contract.ts';

/** One finding as a ticket: the words every tracker shows, and its key. */
export interface TicketItem {
  key: string;
  title: string;
  body: string;
  status: FindingStatus;
  subdomain: string;
  domain: string;
  service: string;
  target: string;
  /** The finding's dashboard link, carrying its key. */
  link: string;
}

/**
 * One tracker, as an integration uses it: check the credential at connect, file a test item, and
 * bring a finding's ticket to open or closed. `ref` is the tracker's own reference kept from an
 * earlier delivery (null when none is kept: the ticket is looked up by the key, never by its title).
 * Failures are ConnectorErrors; `retry` on one says whether trying later may help.
 */
export interface Tracker {
  verify(): Promise<void>;
  test(): Promise<void>;
  open(item: TicketItem, ref: string | null, reason: string | null): Promise<string>;
  close(item: TicketItem, ref: string | null, reason: string): Promise<string | null>;
}

/** What the item a test files says (its title is the model's TEST_ITEM_TITLE). */
export const TEST_BODY = 'A test from DangleWatch: this integration works. Closed at once.';
