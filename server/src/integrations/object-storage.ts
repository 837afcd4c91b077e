import type { Readable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";
import { OutboundAddressError, checkHttpServiceUrl, guardedAgents, type OutboundPolicy } from "./outbound-address";
import type { ServiceCredentials } from "./service-credentials";

/**
 * S3-compatible object storage (AWS S3, MinIO, Cloudflare R2, Backblaze B2, ...). The "Storage" platform
 * service configures it: its URL is the endpoint with the bucket as the last path segment
 * ("https://s3.eu-west-1.amazonaws.com/board-papers", optionally "?region=eu-west-1"), its key is
 * "ACCESS_KEY_ID:SECRET". Objects are addressed path-style, which every compatible server understands.
 */
export interface ObjectStoreConfig {
  /** "https://host[:port][/prefix]/bucket": endpoint and bucket, as recorded with each stored file. */
  location: string;
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export class ObjectStoreConfigError extends Error {}

/** Splits a location ("https://host/bucket[?region=r]") into the endpoint, the bucket and the region. */
export function parseLocation(location: string): { location: string; endpoint: string; bucket: string; region: string } {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    throw new ObjectStoreConfigError("The Storage service URL is not a URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new ObjectStoreConfigError("The Storage service URL must be http(s)");
  const segments = url.pathname.split("/").filter(Boolean);
  const bucket = segments.pop();
  if (!bucket) throw new ObjectStoreConfigError("The Storage service URL must end with the bucket name");
  const region = url.searchParams.get("region") || "us-east-1";
  const endpoint = `${url.origin}${segments.length ? `/${segments.join("/")}` : ""}`;
  const canonical = `${endpoint}/${bucket}${url.searchParams.get("region") ? `?region=${region}` : ""}`;
  return { location: canonical, endpoint, bucket, region };
}

/** The object store a "Storage" platform service describes. */
export function objectStoreConfig(service: Pick<ServiceCredentials, "key" | "url">): ObjectStoreConfig {
  if (!service.url) throw new ObjectStoreConfigError("The Storage service needs a URL: the endpoint and the bucket");
  const separator = service.key.indexOf(":");
  if (separator <= 0 || separator === service.key.length - 1) {
    throw new ObjectStoreConfigError("The Storage service key must be ACCESS_KEY_ID:SECRET");
  }
  return {
    ...parseLocation(service.url),
    accessKeyId: service.key.slice(0, separator),
    secretAccessKey: service.key.slice(separator + 1),
  };
}

let sdk: Promise<typeof import("@aws-sdk/client-s3")> | undefined;
/**
 * The S3 client library, loaded when a store is first used: loading it costs about a tenth of a second of CPU, which
 * every start of the server paid before its first answer, though most servers keep their files in the database.
 */
const s3Sdk = () => (sdk ??= import("@aws-sdk/client-s3"));

/** S3's smallest multipart part (all but the last); also the most an upload holds in memory at once. */
const partBytes = 5 * 1024 * 1024;

export interface ObjectStore {
  /** Writes the object as the bytes arrive (a multipart upload past 5 MiB); a failure of the source aborts it. */
  put(key: string, source: AsyncIterable<Buffer>, contentType: string): Promise<void>;
  /** The object's bytes, or only `range` of them (both ends included). */
  get(key: string, range?: { start: number; end: number }): Promise<Readable>;
  remove(key: string): Promise<void>;
}

/**
 * The endpoint is checked before the client exists (https unless allow-listed, no private address written in it)
 * and each connection's address as it connects: an endpoint cannot point inside, then or later.
 */
export function openObjectStore(config: ObjectStoreConfig, outbound: OutboundPolicy): ObjectStore {
  let target;
  try {
    target = checkHttpServiceUrl(outbound, config.endpoint);
  } catch (error) {
    if (error instanceof OutboundAddressError) throw new ObjectStoreConfigError(`The Storage service: ${error.message}`);
    throw error;
  }
  let client: S3Client | undefined;
  const connect = async () => {
    const s3 = await s3Sdk();
    client ??= new s3.S3Client({
      requestHandler: guardedAgents(outbound, target),
      endpoint: config.endpoint,
      region: config.region,
      forcePathStyle: true,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    });
    return { s3, client };
  };
  const Bucket = config.bucket;

  async function put(key: string, source: AsyncIterable<Buffer>, contentType: string): Promise<void> {
    const { s3, client } = await connect();
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let uploadId: string | undefined;
    const parts: { ETag: string | undefined; PartNumber: number }[] = [];
    const flushPart = async () => {
      const body = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      if (!uploadId) {
        const created = await client.send(new s3.CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: contentType }));
        uploadId = created.UploadId;
      }
      const PartNumber = parts.length + 1;
      const uploaded = await client.send(new s3.UploadPartCommand({ Bucket, Key: key, UploadId: uploadId, PartNumber, Body: body }));
      parts.push({ ETag: uploaded.ETag, PartNumber });
    };
    try {
      for await (const chunk of source) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= partBytes) await flushPart();
      }
      if (!uploadId) {
        await client.send(
          new s3.PutObjectCommand({ Bucket, Key: key, Body: Buffer.concat(pending, pendingBytes), ContentType: contentType }),
        );
        return;
      }
      if (pendingBytes > 0) await flushPart();
      await client.send(new s3.CompleteMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
    } catch (error) {
      if (uploadId) await client.send(new s3.AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId })).catch(() => undefined);
      throw error;
    }
  }

  async function get(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const { s3, client } = await connect();
    const Range = range ? `bytes=${range.start}-${range.end}` : undefined;
    const answer = await client.send(new s3.GetObjectCommand({ Bucket, Key: key, Range }));
    return answer.Body as Readable;
  }

  async function remove(key: string): Promise<void> {
    const { s3, client } = await connect();
    await client.send(new s3.DeleteObjectCommand({ Bucket, Key: key }));
  }

  return { put, get, remove };
}
