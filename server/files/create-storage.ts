import path from 'node:path';
import type { Config } from '../config.ts';
import { LocalDiskStorage, type FileStorage } from './storage.ts';

/** Local disk under DATA_DIR/uploads unless an S3-compatible bucket is configured. */
export function createStorage(config: Config): FileStorage {
  return new LocalDiskStorage(path.join(config.dataDir, 'uploads'));
}
