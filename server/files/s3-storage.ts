import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import type { Config } from '../config.ts';
import type { FileStorage } from './storage.ts';

type S3Settings = NonNullable<Config['s3']>;

/**
 * Files in any S3-compatible bucket (AWS S3, MinIO, R2, Spaces...). The bucket stays private: every
 * file, public or not, is handed out as a short-lived signed link after the site's own check.
 */
export class S3Storage implements FileStorage {
  readonly displayName = 'Cloud Storage';
  private readonly client: S3Client;
  private readonly settings: S3Settings;

  constructor(settings: S3Settings, timeoutMs: number) {
    this.settings = settings;
    this.client = new S3Client({
      // A bucket that does not answer fails the call (then a 503), tried twice at most: a connection
      // within 3 s, no silence longer than the timeout, and a whole call (a large upload) within ten.
      maxAttempts: 2,
      requestHandler: {
        connectionTimeout: Math.min(3_000, timeoutMs),
        socketTimeout: timeoutMs,
        requestTimeout: timeoutMs * 10,
        throwOnRequestTimeout: true,
      },
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

  /** A presigned GET that expires within minutes, answering with the file's type and disposition. */
  signedUrl(key: string, options: { expiresInSeconds: number; contentType: string; disposition: string }): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.settings.bucket,
      Key: key,
      ResponseContentType: options.contentType,
      ResponseContentDisposition: options.disposition,
      ResponseCacheControl: 'private, no-store',
    });
    return getSignedUrl(this.client, command, { expiresIn: options.expiresInSeconds });
  }

  async get(key: string): Promise<Readable | null> {
    try {
      const { Body } = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return (Body as Readable | undefined) ?? null;
    } catch (error) {
      const candidate = error as { name?: unknown; $metadata?: { httpStatusCode?: unknown } };
      if (candidate.name === 'NoSuchKey' || candidate.$metadata?.httpStatusCode === 404) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }
}
