// @vitest-environment happy-dom
import { act, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Dialog } from '../../../src/islands/dashboard/shared/Dialog.tsx';
import { reactRoot } from '../../helpers/react-root.ts';

const dom = reactRoot();

/** A dialog that opens a second one from inside, as Add Domain opens the DNS guide. */
function Nested() {
  const [outer, setOuter] = useState(true);
  const [inner, setInner] = useState(true);
  return outer ? (
    <Dialog title="Add Domain to Monitor" onClose={() => setOuter(false)}>
      <p>outer</p>
      {inner && (
        <Dialog title="DNS guide" onClose={() => setInner(false)}>
          <p>inner</p>
        </Dialog>
      )}
    </Dialog>
  ) : null;
}

/** What the browser does on Escape: a cancelable `cancel` event at the top modal dialog only. */
function escapeOn(dialog: Element) {
  dialog.dispatchEvent(new Event('cancel', { cancelable: true }));
}

const titles = () => [...dom.container.querySelectorAll('dialog h2')].map((h) => h.textContent);

describe('Escape', () => {
  it('regression: closes only the top dialog, not the one that opened it', async () => {
    await act(async () => dom.root.render(<Nested />));
    expect(titles()).toEqual(['Add Domain to Monitor', 'DNS guide']);
    const inner = [...dom.container.querySelectorAll('dialog')].at(-1) as Element;
    await act(async () => escapeOn(inner));
    expect(titles()).toEqual(['Add Domain to Monitor']);
    await act(async () => escapeOn(dom.container.querySelector('dialog') as Element));
    expect(titles()).toEqual([]);
  });
});

/** A button that opens a dialog, and the dialog it opens, as every dashboard screen has them. */
function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Add Domain
      </button>
      {open && (
        <Dialog title="Add Domain to Monitor" onClose={() => setOpen(false)}>
          <button type="button" onClick={() => setOpen(false)}>
            Cancel
          </button>
        </Dialog>
      )}
    </>
  );
}

describe('closing', () => {
  it('regression: gives the focus back to the control that opened the dialog, not the page body', async () => {
    await act(async () => dom.root.render(<Opener />));
    const opener = dom.container.querySelector('button') as HTMLButtonElement;
    opener.focus();
    await act(async () => opener.click());
    const cancel = [...dom.container.querySelectorAll('dialog button')].find(
      (b) => b.textContent === 'Cancel',
    );
    (cancel as HTMLButtonElement).focus();
    expect(document.activeElement?.textContent).toBe('Cancel');
    await act(async () => (cancel as HTMLButtonElement).click());
    expect(dom.container.querySelector('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});
