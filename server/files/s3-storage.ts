import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { Config } from '../config.ts';
import type { FileStorage } from './storage.ts';

type S3Settings = NonNullable<Config['s3']>;

/** Files in any S3-compatible bucket (AWS S3, MinIO, R2, Spaces...). */
export class S3Storage implements FileStorage {
  readonly displayName = 'Cloud Storage';
  private readonly client: S3Client;
  private readonly settings: S3Settings;

  constructor(settings: S3Settings) {
    this.settings = settings;
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
    });
  }

  async put(key: string, body: Readable | Buffer, contentType: string, options: { attachment?: string } = {}): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        ContentDisposition: options.attachment ? `attachment; filename="${options.attachment.replace(/[^\x20-\x7e]|"/g, '_')}"` : undefined,
      }),
    );
  }

  urlFor(key: string): string {
    const { publicUrl, endpoint, bucket, region, forcePathStyle } = this.settings;
    if (publicUrl) return `${publicUrl.replace(/\/$/, '')}/${key}`;
    if (endpoint) {
      const base = endpoint.replace(/\/$/, '');
      return forcePathStyle ? `${base}/${bucket}/${key}` : base.replace('://', `://${bucket}.`) + `/${key}`;
    }
    return `https://${bucket}.s3.${region}.amazonaws.com/${key}`;
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }
}
