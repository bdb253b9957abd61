/** A message as every channel sends it (docs/notifications.md): each channel formats it its own way. */
export interface RenderedMessage {
  /** The email's subject, and the chat message's headline. */
  subject: string;
  /** Paragraphs of plain text, in order. */
  paragraphs: string[];
  /** Buttons (links) under the text: a waiting visitor's Approve and Deny. */
  actions: Array<{ label: string; url: string; style: 'primary' | 'danger' }>;
  /** Small print after the buttons, or none. */
  note: string | null;
  /** The message's language (BCP 47), for the email's `Content-Language`. */
  language: string;
  /** A picture shown after the paragraphs (an invitation's QR code), sent inline by email (`cid:`); chat has none. */
  image?: { cid: string; alt: string; png: Buffer };
  /** Text to copy exactly (an invitation's pass), after the picture: a label, then the text, monospaced in HTML. */
  verbatim?: { label: string; text: string };
  /** Files sent with an email (an invitation's `.ics` calendar entry); chat has none. */
  attachments?: Array<{ filename: string; contentType: string; content: string }>;
  /** Which way its text runs: `rtl` for Arabic (the email's HTML says so). */
  dir: 'ltr' | 'rtl';
}

/** The whole message as plain text: paragraphs, the verbatim text, each action as `Label: url`, then the note. */
export function plainText(message: RenderedMessage): string {
  const actions = message.actions.map((action) => `${action.label}: ${action.url}`);
  return [
    ...message.paragraphs,
    ...(message.verbatim ? [`${message.verbatim.label}\n${message.verbatim.text}`] : []),
    ...(actions.length > 0 ? [actions.join('\n')] : []),
    ...(message.note ? [message.note] : []),
  ].join('\n\n');
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

const BUTTON_COLOURS = { primary: '#1f6f43', danger: '#a4262c' } as const;

/** The message as a small HTML email: escaped text, buttons as plain links, an inline picture if any (no scripts). */
export function html(message: RenderedMessage): string {
  const paragraphs = message.paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n');
  const buttons = message.actions
    .map(
      (action) =>
        `<a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 18px;margin:0 6px;border-radius:4px;color:#ffffff;background:${BUTTON_COLOURS[action.style]};text-decoration:none;font-weight:bold">${escapeHtml(action.label)}</a>`,
    )
    .join('');
  const note = message.note ? `<p style="color:#555555;font-size:13px">${escapeHtml(message.note)}</p>` : '';
  const image = message.image
    ? `<p><img src="cid:${escapeHtml(message.image.cid)}" alt="${escapeHtml(message.image.alt)}" width="240" height="240" style="display:block;width:240px;height:240px;image-rendering:pixelated"></p>`
    : '';
  const verbatim = message.verbatim
    ? `<p>${escapeHtml(message.verbatim.label)}</p>\n<p style="font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;word-break:break-all">${escapeHtml(message.verbatim.text)}</p>`
    : '';
  return `<!doctype html>
<html lang="${escapeHtml(message.language)}" dir="${message.dir}"><body style="font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:15px;line-height:1.5;color:#1b1b1b">
${paragraphs}
${image}
${verbatim}
${buttons ? `<p>${buttons}</p>` : ''}
${note}
</body></html>`;
}
