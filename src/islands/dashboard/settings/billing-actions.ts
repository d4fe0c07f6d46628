import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { toast } from '../../../lib/toast.ts';

/**
 * Opens the Stripe billing portal in a new tab. The tab is opened at the click, before the call,
 * so popup blockers let it through; it is closed again if the call fails.
 */
export async function openBillingPortal(): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const { url } = await dashboardApi().billing.portal();
    if (tab) {
      tab.opener = null;
      tab.location.href = url;
    } else {
      window.location.assign(url);
    }
  } catch (cause) {
    tab?.close();
    toast({
      title: 'Failed to access billing portal',
      description: cause instanceof Error ? cause.message : undefined,
      variant: 'destructive',
    });
  }
}

/** Stripe Checkout for a plan: the browser leaves for the page the server returns. */
export async function startCheckout(planName: string): Promise<void> {
  try {
    const { url } = await dashboardApi().billing.checkout(planName, window.location.origin);
    window.location.assign(url);
  } catch (cause) {
    toast({
      title: 'Failed to start checkout process',
      description: cause instanceof Error ? cause.message : undefined,
      variant: 'destructive',
    });
  }
}

/** Cancels at the period's end; true when it worked. */
export async function cancelSubscription(): Promise<boolean> {
  try {
    await dashboardApi().billing.cancelSubscription();
    toast({
      title: 'Subscription Canceled',
      description: 'Your plan stays active until the end of the paid period.',
    });
    return true;
  } catch {
    toast({
      title: 'Failed to cancel subscription. Please try again or contact support.',
      variant: 'destructive',
    });
    return false;
  }
}
