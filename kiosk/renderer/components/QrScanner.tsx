import { useEffect, useRef, useState } from 'react';
import type { KioskMessage } from '../../../shared/src/messages/kiosk';
import { cameraProblem } from '../camera/cameraWords';
import { type QrReaderKind, createQrReader } from '../camera/qrReader';
import { useWords } from '../language/VisitorLanguage';
import './qrScanner.css';

/** How often a frame is read: often enough to feel at once, seldom enough to leave a tablet's CPU alone. */
const READ_EVERY_MS = 200;

interface QrScannerProps {
  /** The text of the first QR code the camera sees; the camera is off by then. */
  onText: (text: string) => void;
  /** Stop camera: the person gave up (the camera is turned off as this closes). */
  onClose: () => void;
  /** Says what to hold up, e.g. "Hold the console's QR code up to the camera." */
  hint: string;
}

/**
 * The device's camera (the back one where there are two), read for a QR code until one is seen; shown
 * while mounted, off as soon as it is closed or a code is read. Pairing uses it; passes and badges can too.
 * A camera that is refused or missing is said in words; typing (or a keyboard-wedge scanner) still works.
 * Its words are the kiosk's: the visitor's language on a visitor screen, English on a staff one (StaffLanguage).
 */
export function QrScanner({ onText, onClose, hint }: QrScannerProps) {
  const video = useRef<HTMLVideoElement>(null);
  const words = useWords();
  // The word's key, not its text: a language chosen meanwhile says it anew.
  const [problem, setProblem] = useState<KioskMessage>();
  const [reader, setReader] = useState<QrReaderKind>();
  // Through a ref: a new callback each render must not restart the camera.
  const latest = useRef(onText);
  useEffect(() => {
    latest.current = onText;
  }, [onText]);

  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | undefined;
    let timer: number | undefined;
    const stopCamera = () => {
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
    void (async () => {
      try {
        stream = await window.navigator.mediaDevices.getUserMedia({
          video: { facingMode: { ideal: 'environment' } },
          audio: false,
        });
      } catch (error) {
        if (!stopped) setProblem(cameraProblem(error));
        return;
      }
      const element = video.current;
      if (stopped || !element) return stopCamera();
      element.srcObject = stream;
      await element.play().catch(() => undefined);
      let read: Awaited<ReturnType<typeof createQrReader>>;
      try {
        read = await createQrReader(window);
      } catch {
        if (!stopped) setProblem('camera.readerFailed');
        return stopCamera();
      }
      if (stopped) return;
      setReader(read.kind);
      const tick = async () => {
        // A frame the reader cannot take (the video not started yet) is simply no code.
        const text = await read.read(element).catch(() => undefined);
        if (stopped) return;
        if (text === undefined) {
          timer = window.setTimeout(() => void tick(), READ_EVERY_MS);
          return;
        }
        stopped = true;
        stopCamera();
        latest.current(text);
      };
      void tick();
    })();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      stopCamera();
    };
  }, []);

  return (
    <div className="qr-scanner" role="group" aria-label={words.t('camera.group')} data-reader={reader}>
      {problem ? (
        <p className="form-error" role="alert">
          {words.t(problem)}
        </p>
      ) : (
        <>
          <video ref={video} className="qr-video" muted playsInline aria-label={words.t('camera.view')} />
          <p className="field-hint">{hint}</p>
        </>
      )}
      <button type="button" className="button button-secondary" onClick={onClose}>
        {words.t('camera.stop')}
      </button>
    </div>
  );
}
