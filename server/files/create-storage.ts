import path from 'node:path';
import type { Config } from '../config.ts';
import { S3Storage } from './s3-storage.ts';
import { LocalDiskStorage, type FileStorage } from './storage.ts';

/** Local disk under DATA_DIR/uploads unless an S3-compatible bucket is configured. */
export function createStorage(config: Config): FileStorage {
  return config.s3 ? new S3Storage(config.s3, config.outboundTimeoutMs) : new LocalDiskStorage(path.join(config.dataDir, 'uploads'));
}
