import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ConfirmDialog } from '../../../src/islands/dashboard/shared/ConfirmDialog.tsx';
import { TypedField } from '../../../src/islands/dashboard/shared/TypedField.tsx';

const noop = () => {};
const dangerButton = (html: string) => /<button[^>]*>Delete workspace<\/button>/.exec(html)?.[0] ?? '';

function dialog(ready?: boolean) {
  return renderToStaticMarkup(
    <ConfirmDialog
      title="Delete workspace"
      question="Delete Acme for everyone in it?"
      confirmLabel="Delete workspace"
      busyLabel="Deleting..."
      fallbackError="The workspace could not be deleted."
      ready={ready}
      confirmation={<TypedField label="Type Acme to confirm" value="" onChange={noop} />}
      onConfirm={async () => {}}
      onClose={noop}
    >
      This cannot be undone.
    </ConfirmDialog>,
  );
}

describe('a destructive dialog', () => {
  it('shows what it asks for under its sentence, and holds the danger button until it is given', () => {
    const html = dialog(false);
    expect(html).toContain('This cannot be undone.');
    expect(html).toMatch(/<label[^>]*>.*Type Acme to confirm.*<input[^>]*autoComplete="off"/s);
    expect(dangerButton(html)).toContain('disabled=""');
    expect(html).toMatch(/<button[^>]*>Cancel<\/button>/);
    expect(/<button[^>]*>Cancel<\/button>/.exec(html)?.[0]).not.toContain('disabled=""');
  });

  it('offers the danger button once ready, and when it asks for nothing', () => {
    expect(dangerButton(dialog(true))).not.toContain('disabled=""');
    expect(dangerButton(dialog(undefined))).not.toContain('disabled=""');
    expect(dangerButton(dialog(undefined))).not.toBe('');
  });
});
