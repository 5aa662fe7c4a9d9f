// mdcx browse: the page's behaviour.  No framework, no build step, no outside assets.
//
// Text from packages reaches the page in two ways only: as textContent (names,
// titles, citations, messages), or as HTML the server rendered from Markdown
// with every character escaped (passages and documents).  Nothing else is
// ever assigned to innerHTML.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const TOKEN_KEY = "mdcx-browse-token";

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  // -- access code and calls ------------------------------------------------------------

  function readToken() {
    const m = /(?:^#|&)k=([A-Za-z0-9_-]+)/.exec(location.hash);
    if (m) {
      sessionStorage.setItem(TOKEN_KEY, m[1]);
      history.replaceState(null, "", location.pathname);  // the code leaves the address bar
    }
    return sessionStorage.getItem(TOKEN_KEY);
  }
  const token = readToken();

  async function api(path, body, raw) {
    const res = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Mdcx-Token": token || "" },
      body: JSON.stringify(body || {}),
      cache: "no-store",
      credentials: "omit",
    });
    if (raw && res.ok) return res;
    let data;
    try { data = await res.json(); } catch (e) { data = { error: `the server answered ${res.status}` }; }
    if (!res.ok) {
      const err = new Error(data.error || `the server answered ${res.status}`);
      err.status = res.status;
      err.data = data;
      throw err;
    }
    return data;
  }

  function notice(text) {
    const n = $("notice");
    n.textContent = text || "";
    n.hidden = !text;
  }

  // -- packages: cards, unlock, lock ------------------------------------------------------

  const app = { packages: [], results: null, lastQuery: "" };

  function renderCards() {
    const cards = $("cards");
    cards.replaceChildren();
    for (const pkg of app.packages) {
      const rows = el("dl");
      for (const [label, value] of pkg.card) rows.append(el("dt", { text: label }), el("dd", { text: value }));
      const integrity = el("dd", { class: "integrity", text: pkg.intact === null ? "checking..." : "" });
      rows.append(el("dt", { text: "integrity" }), integrity);
      showIntegrity(integrity, pkg.intact);
      if (pkg.intact === null || pkg.intact === undefined) checkIntegrity(pkg.name);
      const details = el(
        "details",
        { open: !pkg.unlocked || (app.packages.length === 1 && !app.results) },
        el(
          "summary", {},
          el("h2", { text: pkg.name }),
          el("span", { class: "badge " + (pkg.unlocked ? "open" : "locked"), text: pkg.unlocked ? "unlocked" : "locked" }),
        ),
        rows,
      );
      if (pkg.signed) details.append(verifyForm(pkg));
      const card = el("div", { class: "card", "data-package": pkg.name }, details, el("div", { class: "attachments-box" }));
      cards.append(card);
    }
    if (app.packages.some((p) => p.unlocked)) loadAttachments();
  }

  function showIntegrity(node, intact) {
    if (intact === true) { node.textContent = "the encrypted body matches its digest"; node.className = "integrity ok"; }
    else if (intact === false) { node.textContent = "ALTERED: the encrypted body does not match its digest"; node.className = "integrity bad"; }
  }

  const checking = new Set();

  async function checkIntegrity(name) {
    if (checking.has(name)) return;  // one check per package; it reads the whole file
    checking.add(name);
    const current = () => document.querySelector(`.card[data-package="${CSS.escape(name)}"] .integrity`);
    try {
      const r = await api("/api/integrity", { package: name });
      const pkg = app.packages.find((p) => p.name === name);
      if (pkg) pkg.intact = r.intact;
      if (current()) showIntegrity(current(), r.intact);
    } catch (e) {
      if (current()) current().textContent = e.message;
    } finally {
      checking.delete(name);
    }
  }

  function verifyForm(pkg) {
    const input = el("input", { type: "text", placeholder: "issuer's public key (64 hex digits)", "aria-label": "public key", spellcheck: "false" });
    const out = el("p", { class: "verify-result", role: "status" });
    const form = el("form", { class: "verify", autocomplete: "off" }, input, el("button", { type: "submit", text: "Check signature" }));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      out.textContent = "checking...";
      out.className = "verify-result";
      try {
        const r = await api("/api/verify", { package: pkg.name, public_key: input.value });
        out.textContent = (r.ok ? "valid: " : "FAILED: ") + r.reason + (r.ok && r.issuer ? ` (issuer ${r.issuer})` : "");
        out.className = "verify-result " + (r.ok ? "ok" : "bad");
      } catch (e) { out.textContent = e.message; out.className = "verify-result bad"; }
    });
    return el("div", {}, form, out);
  }

  async function loadAttachments() {
    let data;
    try { data = await api("/api/attachments"); } catch (e) { return; }
    for (const [name, list] of Object.entries(data.attachments)) {
      const box = document.querySelector(`.card[data-package="${CSS.escape(name)}"] .attachments-box`);
      if (!box) continue;
      box.replaceChildren();
      if (!list.length) continue;
      const ul = el("ul", { class: "attachments" });
      for (const a of list) {
        ul.append(el(
          "li", {},
          el("span", { text: a.title ? `${a.title} (${a.document})` : a.document }),
          el("button", { type: "button", text: "Open", onclick: () => openDocument(name, a.document, null) }),
          el("button", { type: "button", text: "Download", onclick: () => download(name, a.document) }),
        ));
      }
      box.append(el("p", { class: "meta", text: `attachments (${list.length})` }), ul);
    }
  }

  function applyState(data) {
    app.packages = data.packages;
    const open = app.packages.filter((p) => p.unlocked).length;
    const locked = app.packages.length - open;
    $("status").textContent = `${app.packages.length} package${app.packages.length === 1 ? "" : "s"}` +
      (open ? `, ${open} unlocked` : ", locked");
    $("unlock").hidden = locked === 0;
    $("lock").hidden = open === 0;
    $("search-view").hidden = open === 0 || !$("reader").hidden;
    if (open === 0) { $("reader").hidden = true; }
    renderCards();
  }

  async function unlock(ev) {
    ev.preventDefault();
    const input = $("key");
    const key = input.value;
    const error = $("unlock-error");
    error.hidden = true;
    if (!key) return;
    input.value = "";  // the page keeps no copy
    try {
      const data = await api("/api/unlock", { key });
      applyState(data);
      if (data.error) { error.textContent = data.error; error.hidden = false; }
      $("q").focus();
      if ($("q").value.trim()) requestSearch();
    } catch (e) {
      if (e.data && e.data.packages) applyState(e.data);
      error.textContent = e.message;
      error.hidden = false;
      input.focus();
    }
  }

  async function lock() {
    applyState(await api("/api/lock"));
    $("results").replaceChildren();
    $("messages").replaceChildren();
    app.results = null;
    $("key").focus();
  }

  // -- search -------------------------------------------------------------------------------

  let inFlight = false;
  let pending = null;

  function requestSearch(ev) {
    pending = {
      q: $("q").value,
      mode: $("mode").value,
      only: $("only").value || null,
      prefer: $("prefer").checked ? "recent" : null,
      limit: parseInt($("limit").value, 10),
      t0: ev && ev.timeStamp ? ev.timeStamp : performance.now(),
    };
    pump();
  }

  async function pump() {
    if (inFlight || !pending) return;
    const job = pending;
    pending = null;
    inFlight = true;
    try {
      if (!job.q.trim()) {
        showResults(null, job);
      } else {
        const data = await api("/api/search", job);
        if (!pending) showResults(data, job);  // a newer question is waiting: skip drawing this one
      }
    } catch (e) {
      if (!pending) showError(e, job);
    } finally {
      inFlight = false;
      if (pending) pump();
    }
  }

  function done(job) {
    // Time from the keystroke to results on screen: after the next frame is drawn.
    requestAnimationFrame(() => requestAnimationFrame(() => {
      const server = app.results && app.results.seconds;
      window.mdcxLastSearch = {
        q: job.q,
        ms: performance.now() - job.t0,
        serverMs: server ? 1000 * (server.search + server.render) : null,
      };
      document.body.dataset.searched = job.q;
    }));
  }

  function showError(e, job) {
    $("results").replaceChildren();
    $("messages").replaceChildren(el("p", { class: "warning", text: e.message }));
    if (e.status === 403 && e.data && e.data.packages) applyState(e.data);
    done(job);
  }

  function passageWhere(p) {
    const parts = [];
    if (p.page !== null && p.page !== undefined) {
      parts.push(p.last_page && p.last_page !== p.page ? `pages ${p.page}-${p.last_page}` : `page ${p.page}`);
    }
    parts.push(`passage ${p.position + 1}`);
    if (p.heading) parts.push(p.heading);
    return parts.join(" \u00b7 ");
  }

  function copyButton(text) {
    return el("button", {
      type: "button", class: "copy", text: "Copy citation",
      onclick: (ev) => copy(text, ev.currentTarget),
    });
  }

  async function copy(text, button) {
    try {
      await navigator.clipboard.writeText(text);
    } catch (e) {
      const area = el("textarea", {}, text);
      document.body.append(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
    button.textContent = "Copied";
    setTimeout(() => { button.textContent = "Copy citation"; }, 1500);
  }

  function messages(data) {
    const out = [];
    if (data.warning) out.push(el("p", { class: "warning", text: data.warning }));
    for (const [pkg, terms] of Object.entries(data.unknown_terms || {})) {
      out.push(el("p", { text: `Never seen in ${pkg}: ${terms.join(", ")}.` }));
    }
    for (const [pkg, spellings] of Object.entries(data.read_as || {})) {
      const shown = Object.entries(spellings).map(([asked, found]) => `\u201c${asked}\u201d as \u201c${found}\u201d`).join(", ");
      out.push(el("p", { text: `No word of the question occurs as written in ${pkg}; read ${shown} (a likely misreading of the original).` }));
    }
    if (data.prefer_applied !== null && data.prefer_applied !== undefined && data.prefer_note) {
      out.push(el("p", { text: `Prefer recent: ${data.prefer_note}.` }));
    }
    for (const note of data.notes || []) out.push(el("p", { text: note }));
    if (data.locked && data.locked.length) {
      out.push(el("p", { text: `Not searched, still locked: ${data.locked.join(", ")}.` }));
    }
    const n = data.documents.length;
    if (!n && !data.warning) out.push(el("p", { class: "warning", text: "No document matches the question." }));
    if (n) out.push(el("p", { class: "quiet", text: `${n} document${n === 1 ? "" : "s"}, best first` }));
    return out;
  }

  function showResults(data, job) {
    app.results = data;
    app.lastQuery = job.q;
    const list = $("results");
    if (!data) {
      list.replaceChildren();
      $("messages").replaceChildren();
      done(job);
      return;
    }
    $("messages").replaceChildren(...messages(data));
    const items = data.documents.map((d) => {
      const head = el(
        "header", {},
        el("span", { class: "rank", text: `${d.rank}.` }),
        el("h3", {}, el("button", { type: "button", text: d.title || d.document, onclick: () => openDocument(d.package, d.document, d.passages[0] || null) })),
        el("span", { class: "path", text: d.document }),
        el("span", { class: "package", text: d.package }),
        d.dated ? el("span", { class: "meta", text: d.dated }) : null,
        d.direction ? el("span", { class: "meta", text: d.direction }) : null,
      );
      const passages = d.passages.map((p) => {
        const text = el("div", { class: "text markdown", title: "open the document at this passage", dir: "auto" });
        text.innerHTML = p.html;  // rendered and escaped by the server
        text.addEventListener("click", (ev) => {
          if (ev.target.closest("a") || String(window.getSelection())) return;  // following a link, or selecting text
          openDocument(d.package, d.document, p);
        });
        return el(
          "div", { class: "passage", "data-passage": p.passage },
          el("div", { class: "where" },
            el("span", { text: passageWhere(p) }),
            el("button", { type: "button", text: "Open here", onclick: () => openDocument(d.package, d.document, p) })),
          text,
          el("div", { class: "cite" }, el("code", { class: "citation", text: p.citation }), copyButton(p.citation)),
        );
      });
      return el("li", { class: "result", "data-document": d.document, "data-package": d.package }, head, ...passages);
    });
    list.replaceChildren(...items);
    for (const t of list.querySelectorAll(".passage .text")) {
      if (t.scrollHeight > t.clientHeight + 4) t.classList.add("long");
    }
    done(job);
  }

  // -- reading ----------------------------------------------------------------------------

  let reading = null;

  async function openDocument(pkg, documentName, passage) {
    let data;
    try {
      data = await api("/api/document", {
        package: pkg, document: documentName, passage: passage ? passage.passage : null, q: app.lastQuery,
      });
    } catch (e) {
      $("messages").replaceChildren(el("p", { class: "warning", text: e.message }));
      return;
    }
    reading = data;
    $("doc-title").textContent = data.title || data.document;
    $("doc-path").textContent = `${data.document} \u00b7 ${data.package}` + (data.attachment ? " \u00b7 attachment" : "");
    const cite = data.passage ? data.passage.citation : null;
    $("doc-cite").hidden = !cite;
    $("doc-citation").textContent = cite || "";
    const article = $("doc");
    article.innerHTML = data.html;  // rendered and escaped by the server
    article.dataset.package = data.package;
    article.dataset.document = data.document;
    if (data.passage && data.passage.page !== null) article.dataset.page = data.passage.page;
    else delete article.dataset.page;
    if ($("reader").hidden) history.pushState({ view: "reader" }, "");
    showReader(true);
    const hit = $("hit");
    if (hit) hit.scrollIntoView({ block: "start" });
    else window.scrollTo(0, 0);
  }

  function showReader(on) {
    $("reader").hidden = !on;
    $("packages").hidden = on;
    $("search-view").hidden = on || !app.packages.some((p) => p.unlocked);
    if (!on) $("q").focus({ preventScroll: true });
  }

  async function download(pkg, documentName) {
    try {
      const res = await api("/api/download", { package: pkg, document: documentName }, true);
      const blob = await res.blob();
      const url = URL.createObjectURL(blob);
      const a = el("a", { href: url, download: documentName.split("/").pop() || "document.md" });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    } catch (e) {
      notice(e.message);
    }
  }

  // -- start --------------------------------------------------------------------------------

  async function start() {
    if (!token) {
      notice("This page needs its access code: open the address that `mdcx browse` printed (the part after #k= is the code).");
      return;
    }
    try {
      applyState(await api("/api/state"));
    } catch (e) {
      notice(e.message);
      return;
    }
    $("unlock").addEventListener("submit", unlock);
    $("lock").addEventListener("click", lock);
    $("search").addEventListener("submit", (ev) => { ev.preventDefault(); requestSearch(ev); });
    $("q").addEventListener("input", requestSearch);
    for (const id of ["mode", "only", "prefer", "limit"]) $(id).addEventListener("change", requestSearch);
    $("back").addEventListener("click", () => {
      if (history.state && history.state.view === "reader") history.back();
      else showReader(false);
    });
    $("download").addEventListener("click", () => { if (reading) download(reading.package, reading.document); });
    $("doc-copy").addEventListener("click", (ev) => { if (reading && reading.passage) copy(reading.passage.citation, ev.currentTarget); });
    window.addEventListener("popstate", () => showReader(false));
    document.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape" && !$("reader").hidden) $("back").click();
      if (ev.key === "/" && document.activeElement.tagName !== "INPUT" && !$("search-view").hidden) {
        ev.preventDefault();
        $("q").focus();
      }
    });
    if (app.packages.some((p) => p.unlocked)) $("q").focus();
    else $("key").focus();
    document.body.dataset.ready = "yes";
  }

  start();
})();
