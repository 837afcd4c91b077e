import { http, HttpResponse } from "msw";
import { isMessagingService, maskedSecretUrl, type PlatformService } from "@shared/platform";

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
 * An in-memory stand-in for /api/platform/settings that behaves like the server on the points the
 * screens depend on (masking, keep-on-mask updates, 409 on a taken name) and records every request.
 */
export function fakePlatformApi(initial: PlatformService[] = []) {
  let services = [...initial];
  const requests: RecordedRequest[] = [];
  const record = async (request: Request) => {
    const url = new URL(request.url);
    const text = request.method === "GET" || request.method === "DELETE" ? "" : await request.text();
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    requests.push({ method: request.method, path: url.pathname, body });
    return body ?? {};
  };
  const taken = (name: string, exceptId?: number) =>
    services.some((s) => s.id !== exceptId && s.serviceName.toLowerCase() === name.toLowerCase());

  const handlers = [
    http.get("/api/platform/settings", async ({ request }) => {
      await record(request);
      return HttpResponse.json(services);
    }),
    http.post("/api/platform/settings", async ({ request }) => {
      const body = await record(request);
      const name = String(body.serviceName);
      if (taken(name)) return HttpResponse.json({ message: `A service named "${name}" already exists` }, { status: 409 });
      const secretUrl = isMessagingService(name) && body.serviceUrl;
      const created = buildService({
        serviceName: name,
        serviceKey: mask(String(body.serviceKey)),
        serviceUrl: secretUrl ? maskedSecretUrl : ((body.serviceUrl as string | null) ?? null),
        serviceUrlIsSecret: Boolean(secretUrl),
        description: (body.description as string | null) ?? null,
        isEnabled: body.isEnabled !== false,
      });
      services = [...services, created];
      return HttpResponse.json(created, { status: 201 });
    }),
    http.put("/api/platform/settings/:id", async ({ request, params }) => {
      const body = await record(request);
      const id = Number(params.id);
      const current = services.find((s) => s.id === id);
      if (!current) return HttpResponse.json({ message: "Service not found" }, { status: 404 });
      if (typeof body.serviceName === "string" && taken(body.serviceName, id)) {
        return HttpResponse.json({ message: `A service named "${body.serviceName}" already exists` }, { status: 409 });
      }
      const key =
        typeof body.serviceKey === "string" && body.serviceKey && body.serviceKey !== current.serviceKey
          ? mask(body.serviceKey)
          : current.serviceKey;
      const updated: PlatformService = {
        ...current,
        serviceName: (body.serviceName as string | undefined) ?? current.serviceName,
        serviceKey: key,
        serviceUrl:
          body.serviceUrl === undefined || body.serviceUrl === maskedSecretUrl
            ? current.serviceUrl
            : ((body.serviceUrl as string | null) ?? null),
        description: body.description === undefined ? current.description : ((body.description as string | null) ?? null),
        isEnabled: typeof body.isEnabled === "boolean" ? body.isEnabled : current.isEnabled,
        updatedAt: "2026-06-01T12:00:00.000Z",
      };
      services = services.map((s) => (s.id === id ? updated : s));
      return HttpResponse.json(updated);
    }),
    http.delete("/api/platform/settings/:id", async ({ request, params }) => {
      await record(request);
      const id = Number(params.id);
      if (!services.some((s) => s.id === id)) return HttpResponse.json({ message: "Service not found" }, { status: 404 });
      services = services.filter((s) => s.id !== id);
      return new HttpResponse(null, { status: 204 });
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
