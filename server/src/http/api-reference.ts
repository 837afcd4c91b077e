// The API's reference page: the OpenAPI document (openapi.ts) rendered on the server as plain HTML, so it needs
// no script (the CSP allows none inline) and nothing from another origin. Built once, on first use.
import * as reference from "../../../shared/api/reference";
import type { Handler } from "./endpoints";
import { escapeHtml } from "./escape-html";
import { openApiDocument, type MediaType, type OpenApiDocument, type Operation, type Parameter } from "./openapi";

/** A section's anchor; operations use their operationId, so the two never clash. */
const tagAnchor = (name: string) => `tag-${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;

const prettySchema = (schema: unknown) => `<pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre>`;

/** A schema folded away under a line saying what it is: the page stays a list of operations to scan. */
const folded = (label: string, schema: unknown) => `<details><summary>${label}</summary>${prettySchema(schema)}</details>`;

function contentOf(content: Record<string, MediaType> | undefined): string {
  return Object.entries(content ?? {})
    .map(([type, media]) =>
      media.schema ? folded(`<code>${escapeHtml(type)}</code>`, media.schema) : `<p><code>${escapeHtml(type)}</code></p>`,
    )
    .join("");
}

function parametersOf(parameters: Parameter[] | undefined): string {
  if (!parameters?.length) return "";
  const rows = parameters
    .map(
      (parameter) =>
        `<tr><td><code>${escapeHtml(parameter.name)}</code></td><td>${parameter.in}${parameter.required ? "" : ", optional"}</td><td><code>${escapeHtml(JSON.stringify(parameter.schema))}</code></td></tr>`,
    )
    .join("");
  return `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Schema</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function responsesOf(responses: Operation["responses"]): string {
  const items = Object.entries(responses).map(([status, response]) => {
    const kind = Number(status) >= 400 ? "error" : "success";
    // Every error has the one body shown at the top: listing it again under each would bury the rest.
    const body = kind === "error" ? "" : contentOf(response.content);
    return `<li class="${kind}"><span class="status">${status}</span> ${escapeHtml(response.description)}${body}</li>`;
  });
  return `<h4>Answers</h4><ul class="responses">${items.join("")}</ul>`;
}

function operationHtml(path: string, method: string, operation: Operation): string {
  const body = operation.requestBody;
  return `<article id="${escapeHtml(operation.operationId)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code class="path">${escapeHtml(path)}</code></h3>
<p>${escapeHtml(operation.summary)}</p>
<p class="who"><strong>Who may call:</strong> ${escapeHtml(operation.description)}</p>
<p class="meta">operationId <code>${escapeHtml(operation.operationId)}</code></p>
${parametersOf(operation.parameters)}
${body ? `<h4>Request body</h4>${body.description ? `<p>${escapeHtml(body.description)}</p>` : ""}${contentOf(body.content)}` : ""}
${responsesOf(operation.responses)}
</article>`;
}

const stylesheet = `
:root { color-scheme: light dark; --bg: #fff; --fg: #1c1f24; --muted: #5b6270; --line: #dde1e7; --code: #f3f5f8; --accent: #2557c7;
  --get: #1a7f4b; --post: #2557c7; --put: #9a5b00; --patch: #7a3fb0; --delete: #b42318; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #121417; --fg: #e6e8eb; --muted: #9aa3ae; --line: #2c3139; --code: #1c2026; --accent: #8ab4ff;
    --get: #5fd39a; --post: #8ab4ff; --put: #f0b35c; --patch: #c9a2f0; --delete: #ff8a80; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 64rem; margin: 0 auto; padding: 1.5rem 1rem 4rem; }
h1 { font-size: 1.75rem; margin: 0 0 .5rem; }
h2 { font-size: 1.35rem; margin: 2.5rem 0 1rem; padding-bottom: .35rem; border-bottom: 2px solid var(--line); }
h3 { font-size: 1rem; margin: 0 0 .35rem; display: flex; flex-wrap: wrap; gap: .5rem; align-items: baseline; }
h4 { font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 1rem 0 .35rem; }
p { margin: .35rem 0; }
a { color: var(--accent); }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .85rem; }
code { overflow-wrap: anywhere; }
.path { font-size: .95rem; font-weight: 600; }
pre { background: var(--code); border: 1px solid var(--line); border-radius: 6px; padding: .75rem; overflow-x: auto; max-height: 28rem; margin: .35rem 0; }
article { border: 1px solid var(--line); border-radius: 8px; padding: 1rem; margin: 0 0 1rem; }
.method { font: 700 .75rem/1 ui-monospace, monospace; padding: .3rem .45rem; border-radius: 4px; color: var(--bg); }
.get { background: var(--get); } .post { background: var(--post); } .put { background: var(--put); }
.patch { background: var(--patch); } .delete { background: var(--delete); }
.who, .meta { color: var(--muted); font-size: .9rem; }
.who strong { color: var(--fg); }
nav ul { display: flex; flex-wrap: wrap; gap: .5rem 1rem; padding: 0; list-style: none; }
ul.responses { list-style: none; padding: 0; margin: 0; }
ul.responses li { padding: .3rem 0; border-top: 1px solid var(--line); font-size: .9rem; }
.status { display: inline-block; min-width: 2.5rem; font-weight: 700; font-family: ui-monospace, monospace; }
.success .status { color: var(--get); } .error .status { color: var(--delete); }
summary { cursor: pointer; color: var(--accent); padding: .2rem 0; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; display: block; overflow-x: auto; }
th, td { text-align: left; padding: .3rem .5rem .3rem 0; border-top: 1px solid var(--line); vertical-align: top; }
`;

/** The page for a document: a section per tag, an article per operation, in the table's order. */
export function renderApiReference(document: OpenApiDocument): string {
  const sections = document.tags.map(({ name }) => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => operation.tags[0] === name)
        .map(([method, operation]) => operationHtml(path, method, operation)),
    );
    return {
      name,
      html: `<section id="${tagAnchor(name)}"><h2>${escapeHtml(name)}</h2>${operations.join("\n")}</section>`,
      count: operations.length,
    };
  });
  const contents = sections.map(({ name, count }) => `<li><a href="#${tagAnchor(name)}">${escapeHtml(name)}</a> (${count})</li>`).join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.info.title)} reference</title>
<style>${stylesheet}</style>
</head>
<body>
<main>
<h1>${escapeHtml(document.info.title)}</h1>
<p>${escapeHtml(document.info.description)} The same as <a href="${reference.openApiDocument.path}">${reference.openApiDocument.path}</a> (OpenAPI ${document.openapi}).</p>
<p>Sign in for a token and send it as <code>Authorization: Bearer &lt;token&gt;</code>; reads also take the session cookie.</p>
<nav aria-label="Features"><ul>${contents}</ul></nav>
${folded("The error body (every 4xx and 5xx answer)", document.components.schemas.ApiError)}
${sections.map((section) => section.html).join("\n")}
</main>
</body>
</html>
`;
}

let page: string | undefined;

export const serveApiReference: Handler<typeof reference.apiReference> = async ({ res }) => {
  page ??= renderApiReference(openApiDocument());
  res.type("text/html").send(page);
};
