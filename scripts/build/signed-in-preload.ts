// A build step: a tiny script the page loads beside the entry, which starts downloading the signed-in app
// when a session token is stored.
//
// The entry finds out that someone is signed in only once it has downloaded and run, and only then asks for
// the shell and the home page: on a phone's slow link that is the entry's whole download and a long task
// later. The check is one line and needs none of the app, so index.html loads it (async, beside the entry):
// it asks who is signed in and adds `modulepreload` links for those chunks at once, and the app takes that
// answer instead of asking again. Once that answer names the active company, it also asks for the first reads of
// the page at the address (the dashboard's panels), which the app would otherwise ask for only once the entry has
// arrived and run. A visitor without a token downloads nothing more. Its own file, not an inline script: the content
// security policy allows scripts from the app's origin only.
import type { Plugin, Rolldown } from "vite";
import { AUTH_TOKEN_KEY, EARLY_CURRENT_USER, EARLY_READS } from "../../client/src/lib/auth-token-key.ts";

/** A page the script prepares at its addresses: its own chunk, and the addresses of its first reads (`:companyId` in them). */
export interface PreloadedPage {
  paths: readonly string[];
  file: string;
  reads?: readonly string[];
}

/**
 * The script's text: with a token stored, the request for the current user (left for the app to take), a
 * `modulepreload` link (marked `data-preload="signed-in"`) for each shared file and for the page at the address,
 * and, once the current user's answer names an active company, the requests for that page's first reads (left for
 * the app to take too).
 */
export function preloadScript(shared: readonly string[], pages: readonly PreloadedPage[]): string {
  const byPath = Object.fromEntries(pages.flatMap(({ paths, file }) => paths.map((path) => [path, `/${file}`])));
  const readsByPath = Object.fromEntries(pages.flatMap(({ paths, reads }) => (reads?.length ? paths.map((path) => [path, reads]) : [])));
  const user = JSON.stringify(EARLY_CURRENT_USER);
  return (
    `try{const t=localStorage.getItem(${JSON.stringify(AUTH_TOKEN_KEY)});if(t){` +
    `const p=${JSON.stringify(byPath)}[location.pathname],q=${JSON.stringify(readsByPath)}[location.pathname];` +
    `for(const h of ${JSON.stringify(shared.map((file) => `/${file}`))}.concat(p?[p]:[])){const l=document.createElement("link");l.rel="modulepreload";l.href=h;l.dataset.preload="signed-in";document.head.appendChild(l)}` +
    // Only if the app has not asked already (it leaves false there): an answer nobody reads keeps its request open.
    `if(window[${user}]===undefined){const a={headers:{Authorization:"Bearer "+t},credentials:"include"},r=fetch("/api/auth/user",a);` +
    `window[${user}]={token:t,response:r};` +
    // The reads' addresses name the active company, known from the user's answer (read from a copy: the app reads the
    // answer itself). A failed read is the app's to ask again; the catch only keeps it from being reported as unhandled.
    `if(q)window[${JSON.stringify(EARLY_READS)}]={token:t,responses:r.then(x=>x.ok?x.clone().json():null).then(u=>{const o={};` +
    `if(u&&u.companyId!=null)for(const s of q){const h=s.replace(":companyId",encodeURIComponent(u.companyId)),f=fetch(h,a);f.catch(()=>{});o[h]=f}return o}).catch(()=>({}))}` +
    `}}}catch{}\n`
  );
}

/**
 * `chunks`: the names of the grouped chunks every signed-in page needs; `pages`: the pages whose own chunk to
 * preload at their addresses (the home page), with the addresses of their first reads. The build fails if one of
 * them is missing, rather than ship a script that preloads nothing.
 */
export function signedInPreload({
  chunks,
  pages,
}: {
  chunks: readonly string[];
  pages: readonly { paths: readonly string[]; module: string; reads?: readonly string[] }[];
}): Plugin {
  return {
    name: "quorum:signed-in-preload",
    apply: "build",
    // After Vite has written index.html into the bundle.
    enforce: "post",
    generateBundle(_options, bundle) {
      const outputChunks = Object.values(bundle).filter((file): file is Rolldown.OutputChunk => file.type === "chunk");
      const shared = chunks.map((name) => outputChunks.find((chunk) => chunk.name === name && chunk.facadeModuleId === null));
      const pageChunks = pages.map(({ module }) => outputChunks.find((chunk) => chunk.facadeModuleId === module));
      const missing = [
        ...chunks.filter((_, index) => !shared[index]),
        ...pages.filter((_, index) => !pageChunks[index]).map(({ module }) => module),
      ];
      if (missing.length > 0) this.error(`signed-in preload: no chunk for ${missing.join(", ")}`);
      const source = preloadScript(
        shared.map((chunk) => chunk!.fileName),
        pages.map(({ paths, reads }, index) => ({ paths, reads, file: pageChunks[index]!.fileName })),
      );
      const reference = this.emitFile({ type: "asset", name: "preload-signed-in.js", source });

      const page = bundle["index.html"];
      if (page?.type !== "asset" || typeof page.source !== "string")
        return this.error("signed-in preload: index.html is not in the bundle");
      if (!page.source.includes("</head>")) this.error("signed-in preload: index.html has no </head>");
      page.source = page.source.replace("</head>", `  <script async src="/${this.getFileName(reference)}"></script>\n  </head>`);
    },
  };
}
