// The operator's review page for identifier suggestions: calls /admin/v1/identifiers on this origin
// with the operator token typed into the page (kept in memory only; no cookie, so nothing for
// another site to ride on). Every value is put into the page as text, never as HTML.
const $ = (id) => document.getElementById(id);
let page = 1;

async function operatorApi(path, method = "GET", body) {
  const response = await fetch(`/admin/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${$("token").value}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${response.status} ${answer.code}: ${answer.message}`);
  return answer;
}

const cell = (text) => {
  const td = document.createElement("td");
  td.textContent = text ?? "";
  return td;
};

function reviewButtons(suggestion) {
  const td = document.createElement("td");
  for (const [label, action] of [
    ["Approve", () => operatorApi(`/identifiers/${encodeURIComponent(suggestion.suggestionId)}/approve`, "POST")],
    ["Reject", () => operatorApi(`/identifiers/${encodeURIComponent(suggestion.suggestionId)}/reject`, "POST", {})],
  ]) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.addEventListener("click", () => review(action, `${label}d ${suggestion.suggestionId}.`));
    td.append(button);
  }
  return td;
}

async function review(action, done) {
  try {
    await action();
    $("message").textContent = done;
    await show(page);
  } catch (error) {
    $("message").textContent = error.message;
  }
}

async function show(number) {
  const status = $("status").value;
  const answer = await operatorApi(`/identifiers?status=${status}&page=${number}`);
  page = number;
  const rows = answer.items.map((s) => {
    const tr = document.createElement("tr");
    tr.append(
      ...[s.suggestionId, s.gameId, s.gameEditionId, s.kind, s.value, s.note, s.conflictGameId, s.userId, s.createdAt].map(cell),
      status === "open" ? reviewButtons(s) : cell(s.reviewReason ?? s.reviewedBy),
    );
    return tr;
  });
  $("rows").replaceChildren(...rows);
  $("more").hidden = !answer.hasMore;
  $("message").textContent = `${answer.totalCount} ${status}.`;
}

$("load").addEventListener("submit", (event) => {
  event.preventDefault();
  show(1).catch((error) => {
    $("message").textContent = error.message;
  });
});
$("more").addEventListener("click", () =>
  show(page + 1).catch((error) => {
    $("message").textContent = error.message;
  }),
);
