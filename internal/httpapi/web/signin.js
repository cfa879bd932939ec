// Sign-in to a shared quarry (docs/auth.md). When the API answers 401, a
// form asks for an API token (quarry tokens create); POST /api/session
// turns it into an HttpOnly cookie and the page reloads signed in. The
// token itself is never kept by the page. When the server has an OpenID
// Connect provider (the 401 of GET /api/session offers it as sign_in),
// the form leads with "Sign in with <provider>", a link to /auth/login
// that comes back to this page. A signed-in page gets a "Sign out"
// button, which ends the sign-in (DELETE /api/session).

let shown = false;

function node(tag, attrs = {}, children = []) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") n.textContent = v;
    else n.setAttribute(k, v);
  }
  n.append(...children);
  return n;
}

// offerProvider puts "Sign in with <provider>" at the top of the form, when
// offer (GET /api/session's sign_in) names one.
function offerProvider(form, offer) {
  if (!offer || !offer.provider || !offer.url || form.querySelector(".signin-provider")) return;
  const back = encodeURIComponent(location.pathname + location.search);
  const link = node("a", { class: "btn btn-primary signin-provider", href: `${offer.url}?return_to=${back}`, text: `Sign in with ${offer.provider}` });
  const or = node("p", { class: "muted small", text: "Or paste an API token:" });
  form.querySelector("h2").after(link, or);
}

// showSignIn covers the page with the sign-in form, once. offer is what
// else GET /api/session offers (undefined: ask it).
export function showSignIn(message, offer) {
  if (shown) return;
  shown = true;
  const input = node("input", { id: "signin-token", type: "password", autocomplete: "off", spellcheck: "false", placeholder: "qry_…", required: "" });
  const error = node("p", { id: "signin-error", class: "signin-error", role: "alert" });
  const submit = node("button", { type: "submit", class: "btn btn-primary", text: "Sign in" });
  const form = node("form", { class: "signin-form" }, [
    node("h2", { id: "signin-title", text: "Sign in to quarry" }),
    node("p", { class: "muted", text: message || "This quarry is shared: sign in with your API token." }),
    node("label", { for: "signin-token", text: "API token" }),
    input,
    node("p", { class: "muted small", text: "Ask an admin for one: quarry tokens create --user YOU." }),
    error,
    submit,
  ]);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    submit.disabled = true;
    error.textContent = "";
    try {
      const res = await fetch("/api/session", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ token: input.value.trim() }),
      });
      if (res.ok) {
        input.value = "";
        location.reload();
        return;
      }
      const body = await res.json().catch(() => null);
      error.textContent = (body && body.error && body.error.message) || `The server answered ${res.status}.`;
    } catch {
      error.textContent = "The quarry server cannot be reached.";
    }
    submit.disabled = false;
    input.select();
  });
  const dialog = node("div", { class: "signin", id: "signin", role: "dialog", "aria-modal": "true", "aria-labelledby": "signin-title" }, [form]);
  document.body.append(dialog);
  input.focus();
  if (offer !== undefined) {
    offerProvider(form, offer);
    return;
  }
  fetch("/api/session", { headers: { Accept: "application/json" } })
    .then((res) => (res.status === 401 ? res.json() : null))
    .then((body) => offerProvider(form, body && body.sign_in))
    .catch(() => {});
}

// whoami asks who is signed in: the form when nobody is and sign-in is on,
// a sign-out button when someone is.
async function whoami() {
  let res;
  try {
    res = await fetch("/api/session", { headers: { Accept: "application/json" } });
  } catch {
    return;
  }
  if (res.status === 401) {
    const body = await res.json().catch(() => null);
    showSignIn(body && body.error && body.error.message, (body && body.sign_in) || null);
    return;
  }
  if (!res.ok) return;
  const me = await res.json().catch(() => null);
  if (!me || !me.required || !me.user) return;
  const out = node("button", { type: "button", class: "btn btn-ghost small signout", id: "signout", text: `Sign out ${me.user} (${me.role})` });
  out.addEventListener("click", async () => {
    await fetch("/api/session", { method: "DELETE" }).catch(() => null);
    location.reload();
  });
  const foot = document.querySelector(".sidebar-foot");
  if (foot) foot.after(out);
  else document.body.append(out);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", whoami);
else whoami();
