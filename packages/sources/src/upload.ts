import { ExtractionFailure } from '@xt/contract';
import {
  BlobNotFoundError,
  isObjectStoreUnavailable,
  readAll,
  type BlobStore,
} from '@xt/blob-store';

/** An uploaded source as the extraction row describes it. */
export interface UploadedSource {
  /** Where the bytes are; null once they were removed after the retention period. */
  ref: string | null;
  contentType: string;
  /** The bytes' SHA-256 as the upload recorded it: the key of an earlier preparation. */
  sha256: string;
}

/** The stored bytes of an upload, whole (pdf.js and sharp take a buffer). */
export async function readUpload(
  store: BlobStore,
  file: UploadedSource,
  maxBytes: number,
): Promise<Buffer> {
  const gone = () =>
    new ExtractionFailure('SOURCE_UNREADABLE', 'The uploaded file is no longer stored.');
  if (!file.ref) throw gone();
  try {
    return await readAll(store, file.ref, maxBytes);
  } catch (err) {
    // Deleted with its extraction while this job ran; the row is gone too, so nothing is written.
    if (err instanceof BlobNotFoundError) throw gone();
    // The object store is down: the bytes are still there, so the attempt is retried.
    if (isObjectStoreUnavailable(err))
      throw new ExtractionFailure('INTERNAL', 'The stored upload could not be read just now.', {
        retryable: true,
        cause: err,
      });
    if (err instanceof RangeError)
      throw new ExtractionFailure(
        'SOURCE_TOO_LARGE',
        `The uploaded file is larger than this worker's MAX_UPLOAD_BYTES (${maxBytes} bytes).`,
      );
    throw err;
  }
}
