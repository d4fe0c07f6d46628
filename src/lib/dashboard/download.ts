/** Saves `data` as a pretty-printed JSON file through the browser's download. */
export function downloadJson(fileName: string, data: unknown): void {
  const blob = new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL; give the browser a moment before releasing it.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
