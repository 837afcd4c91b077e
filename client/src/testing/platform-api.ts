import * as platformApi from "@shared/api/platform";
import { isMessagingService, maskedSecretUrl, type PlatformService } from "@shared/platform";
import { apiError, handle } from "@/testing/handle";

let nextId = 500;

/** A service as the API answers it (key masked). */
export function buildService(fields: Partial<PlatformService> = {}): PlatformService {
  return {
    id: nextId++,
    serviceName: "OpenAI",
    serviceKey: "sk-live-…",
    hasKey: true,
    serviceUrl: null,
    serviceUrlIsSecret: false,
    isEnabled: true,
    description: null,
    createdAt: "2026-05-01T10:00:00.000Z",
    updatedAt: "2026-05-02T10:00:00.000Z",
    ...fields,
  };
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
}

const mask = (key: string) => `${key.slice(0, key.length > 12 ? 8 : Math.floor(key.length / 3))}…`;

/**
 * An in-memory stand-in for the platform services' endpoints that behaves like the server on the points the
 * screens depend on (masking, keep-on-mask updates, 409 on a taken name) and records every request.
 */
export function fakePlatformApi(initial: PlatformService[] = []) {
  let services = [...initial];
  const requests: RecordedRequest[] = [];
  const record = (request: Request, body?: unknown) => {
    requests.push({ method: request.method, path: new URL(request.url).pathname, body });
  };
  const taken = (name: string, exceptId?: number) =>
    services.some((s) => s.id !== exceptId && s.serviceName.toLowerCase() === name.toLowerCase());

  const handlers = [
    handle(platformApi.listServices, ({ request }) => {
      record(request);
      return services;
    }),
    handle(platformApi.createService, ({ request, body }) => {
      record(request, body);
      const name = body.serviceName;
      if (taken(name)) return apiError(409, `A service named "${name}" already exists`);
      const secretUrl = isMessagingService(name) && body.serviceUrl;
      const created = buildService({
        serviceName: name,
        serviceKey: mask(body.serviceKey),
        serviceUrl: secretUrl ? maskedSecretUrl : (body.serviceUrl ?? null),
        serviceUrlIsSecret: Boolean(secretUrl),
        description: body.description ?? null,
        isEnabled: body.isEnabled !== false,
      });
      services = [...services, created];
      return created;
    }),
    handle(platformApi.updateService, ({ request, params, body }) => {
      record(request, body);
      const current = services.find((s) => s.id === params.id);
      if (!current) return apiError(404, "Service not found");
      if (typeof body.serviceName === "string" && taken(body.serviceName, params.id)) {
        return apiError(409, `A service named "${body.serviceName}" already exists`);
      }
      const key =
        typeof body.serviceKey === "string" && body.serviceKey && body.serviceKey !== current.serviceKey
          ? mask(body.serviceKey)
          : current.serviceKey;
      const updated: PlatformService = {
        ...current,
        serviceName: body.serviceName ?? current.serviceName,
        serviceKey: key,
        serviceUrl: body.serviceUrl === undefined || body.serviceUrl === maskedSecretUrl ? current.serviceUrl : (body.serviceUrl ?? null),
        description: body.description === undefined ? current.description : (body.description ?? null),
        isEnabled: typeof body.isEnabled === "boolean" ? body.isEnabled : current.isEnabled,
        updatedAt: "2026-06-01T12:00:00.000Z",
      };
      services = services.map((s) => (s.id === params.id ? updated : s));
      return updated;
    }),
    handle(platformApi.deleteService, ({ request, params }) => {
      record(request);
      if (!services.some((s) => s.id === params.id)) return apiError(404, "Service not found");
      services = services.filter((s) => s.id !== params.id);
    }),
  ];

  return {
    handlers,
    requests,
    /** Requests other than the list loads. */
    writes: () => requests.filter((r) => r.method !== "GET"),
    listLoads: () => requests.filter((r) => r.method === "GET").length,
    services: () => services,
  };
}
