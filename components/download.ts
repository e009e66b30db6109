/** Save text chunks as a file from an extension page (no downloads permission needed). */
export function downloadChunks(chunks: string[], fileName: string, type: string): void {
  downloadParts(chunks, fileName, type);
}

/** Save a file's parts (text or bytes) from an extension page: a Blob URL and a link with `download`. */
export function downloadParts(parts: BlobPart[], fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob(parts, { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
