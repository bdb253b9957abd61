/**
 * Reads the text of a QR code in the video's current frame; undefined when it shows none. Apart from the
 * readers, so the bundled one (loaded only when needed) and the chooser do not import each other.
 */
export type QrReader = (video: HTMLVideoElement) => Promise<string | undefined>;
