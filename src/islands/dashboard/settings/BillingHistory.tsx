import type { BillingInfo, InvoiceView } from '../../../model/billing.ts';
import { BUTTON } from '../shared/buttons.ts';
import { openBillingPortal } from './billing-actions.ts';

const STATUS: Record<InvoiceView['status'], { label: string; className: string }> = {
  paid: { label: 'Paid', className: 'bg-green-100 text-green-800' },
  open: { label: 'Open', className: 'bg-amber-100 text-amber-900' },
  void: { label: 'Void', className: 'bg-slate-200 text-slate-800' },
};

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** The last five invoices (amounts are cents / 100); the portal has the rest. */
export function BillingHistory({ info }: { info: BillingInfo }) {
  return (
    <section aria-labelledby="billing-history-title">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="billing-history-title" className="text-lg font-semibold text-ink">
          Billing history
        </h2>
        {info.billing.configured && info.subscriptionStatus !== 'none' && (
          <button type="button" className={BUTTON.small} onClick={() => void openBillingPortal()}>
            View All Invoices
          </button>
        )}
      </div>
      {info.invoicesUnavailable ? (
        <p className="mt-2 text-sm text-slate-700">
          Invoices could not be loaded from Stripe just now. Try again later.
        </p>
      ) : info.invoices.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700">No invoices yet.</p>
      ) : (
        <table className="mt-3 w-full text-left text-sm" data-testid="invoices">
          <thead className="text-slate-600">
            <tr>
              <th className="py-2 font-medium">Date</th>
              <th className="py-2 font-medium">Amount</th>
              <th className="py-2 font-medium">Status</th>
              <th className="py-2 font-medium">
                <span className="sr-only">Download</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {info.invoices.map((invoice) => (
              <tr key={invoice.id} className="border-t border-slate-200">
                <td className="py-2">{dateFormat.format(new Date(invoice.date))}</td>
                <td className="py-2">{money.format(invoice.amount / 100)}</td>
                <td className="py-2">
                  <span
                    className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS[invoice.status].className}`}
                  >
                    {STATUS[invoice.status].label}
                  </span>
                </td>
                <td className="py-2 text-right">
                  {invoice.downloadUrl && (
                    <a
                      className="text-brand-700 underline"
                      href={invoice.downloadUrl}
                      target="_blank"
                      rel="noopener noreferrer"
                    >
                      Download
                    </a>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
