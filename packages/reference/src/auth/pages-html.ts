// The account pages' HTML (issue 15 "Account pages"): small, server-rendered, no script. Every value is escaped;
// every form carries the CSRF token. The escaper is the one of spec/report/html.ts.
import { htmlEscape } from "@plumbline-kit/contract/report/html";

export const esc = htmlEscape;

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.5rem}label{display:block;margin:.6rem 0}input[type=text],input[type=password]{display:block;width:100%;
padding:.4rem;font:inherit}button{font:inherit;padding:.4rem 1rem;margin:.3rem .3rem .3rem 0}table{border-collapse:collapse;
width:100%}td,th{text-align:left;padding:.3rem;border-bottom:1px solid #ddd}.problem{color:#a00}.key{font-family:monospace;
background:#f3f3a0;padding:.4rem;word-break:break-all}nav a{margin-right:1rem}form.inline{display:inline}`;

export function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${esc(title)} · plumbline</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

const csrfField = (token: string) => `<input type="hidden" name="_csrf" value="${esc(token)}">`;
const problemLine = (problem?: string) => (problem ? `<p class="problem" role="alert">${esc(problem)}</p>` : "");

export function credentialsForm(o: {
  action: string;
  csrf: string;
  button: string;
  problem?: string;
  login?: string;
  newPassword?: boolean;
}): string {
  return `${problemLine(o.problem)}<form method="post" action="${esc(o.action)}">${csrfField(o.csrf)}
<label>Username <input type="text" name="login" autocomplete="username" required value="${esc(o.login ?? "")}"></label>
<label>Password <input type="password" name="password" required
 autocomplete="${o.newPassword ? "new-password" : "current-password"}"></label>
<button type="submit">${esc(o.button)}</button></form>`;
}

export function signInPage(o: { action: string; csrf: string; problem?: string; login?: string; signUpHref: string }) {
  return layout(
    "Sign in",
    `<h1>Sign in</h1>${credentialsForm({ ...o, button: "Sign in" })}
<p>No account yet? <a href="${esc(o.signUpHref)}">Create one</a>.</p>`,
  );
}

export function signUpPage(o: { action: string; csrf: string; problem?: string; login?: string; signInHref: string }) {
  return layout(
    "Create an account",
    `<h1>Create an account</h1><p>No e-mail needed: a username and a password of at least ten characters.</p>
${credentialsForm({ ...o, button: "Create account", newPassword: true })}
<p>Already have one? <a href="${esc(o.signInHref)}">Sign in</a>.</p>`,
  );
}

export function consentPage(o: {
  action: string;
  abortAction: string;
  csrf: string;
  clientName: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  login: string;
}) {
  const explain: Record<string, string> = {
    openid: "know which account you are",
    offline_access: "keep access when you are away (a refresh token), until you revoke it",
  };
  const items = o.scopes.map((s) => `<li><code>${esc(s)}</code>: ${esc(explain[s] ?? s)}</li>`).join("");
  return layout(
    "Allow access",
    `<h1>Allow ${esc(o.clientName)} to use your account?</h1>
<p>Signed in as <strong>${esc(o.login)}</strong>. The application <code>${esc(o.clientId)}</code> asks to call the
service for you, charged to your credits, and to:</p><ul>${items}<li>call every operation of the API</li></ul>
<p>It will be sent back to <code>${esc(o.redirectUri)}</code>.</p>
<form method="post" action="${esc(o.action)}" class="inline">${csrfField(o.csrf)}<button type="submit">Allow</button></form>
<form method="post" action="${esc(o.abortAction)}" class="inline">${csrfField(o.csrf)}<button type="submit">Deny</button></form>`,
  );
}

export interface DashboardView {
  login: string;
  balance: number;
  usage: Array<{ operationId: string; credits: number; at: string }>;
  keys: Array<{ prefix: string; createdAt: string; revokedAt: string | null }>;
  /** the account's own feedback reports, newest first; the section is left out while there are none */
  feedback?: Array<{ id: string; receivedAt: string; category: string; message: string }>;
  newKey?: string;
  notice?: string;
  csrf: string;
}

export function dashboardPage(v: DashboardView): string {
  const form = (action: string, label: string, prefix?: string) =>
    `<form method="post" action="${action}" class="inline">${csrfField(v.csrf)}${
      prefix ? `<input type="hidden" name="prefix" value="${esc(prefix)}">` : ""
    }<button type="submit">${label}</button></form>`;
  const usage = v.usage.length
    ? `<table><thead><tr><th>when</th><th>operation</th><th>credits</th></tr></thead><tbody>${v.usage
        .map((u) => `<tr><td>${esc(u.at)}</td><td>${esc(u.operationId)}</td><td>${u.credits}</td></tr>`)
        .join("")}</tbody></table>`
    : "<p>No usage yet.</p>";
  const keys = v.keys.length
    ? `<table><thead><tr><th>key</th><th>created</th><th>state</th><th></th></tr></thead><tbody>${v.keys
        .map(
          (k) =>
            `<tr><td><code>${esc(k.prefix)}…</code></td><td>${esc(k.createdAt)}</td><td>${
              k.revokedAt ? `revoked ${esc(k.revokedAt)}` : "active"
            }</td><td>${
              k.revokedAt
                ? ""
                : `${form("/account/keys/rotate", "Rotate", k.prefix)}${form("/account/keys/revoke", "Revoke", k.prefix)}`
            }</td></tr>`,
        )
        .join("")}</tbody></table>`
    : "<p>No API keys. OAuth applications need none.</p>";
  const feedback = v.feedback?.length
    ? `<h2>Your feedback</h2><table id="feedback"><thead><tr><th>when</th><th>category</th><th>message</th><th>id</th></tr></thead><tbody>${v.feedback
        .map(
          (f) =>
            `<tr><td>${esc(f.receivedAt)}</td><td>${esc(f.category)}</td><td>${esc(f.message)}</td><td><code>${esc(f.id)}</code></td></tr>`,
        )
        .join("")}</tbody></table>`
    : "";
  const fresh = v.newKey
    ? `<p role="status">Your new API key, shown this once (copy it now):</p><p class="key" id="new-key">${esc(v.newKey)}</p>`
    : "";
  return layout(
    "Your account",
    `<nav><a href="/docs">API reference</a>${form("/account/logout", "Sign out")}</nav>
<h1>${esc(v.login)}</h1>${v.notice ? `<p role="status">${esc(v.notice)}</p>` : ""}
<h2>Credits</h2><p>Balance: <strong id="balance">${v.balance}</strong> credits</p>
<h2>Recent usage</h2>${usage}
<h2>API keys</h2>${fresh}${keys}${form("/account/keys", "Create an API key")}${feedback}`,
  );
}

export function renderErrorPage(error: string, description: string): string {
  return layout(
    "Authorization error",
    `<h1>The authorization request cannot go on</h1><p><code>${esc(error)}</code></p><p>${esc(description)}</p>`,
  );
}
