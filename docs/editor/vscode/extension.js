// A minimal VS Code extension: it starts `rulewright lsp` for YAML files and lets VS Code's
// language client do the rest (docs/editor.md). The server itself decides which YAML files
// belong to a spec folder and ignores the others.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("rulewright").get("command");
  const run = { command, args };
  client = new LanguageClient(
    "rulewright",
    "Rulewright",
    { run, debug: run },
    { documentSelector: [{ scheme: "file", language: "yaml" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
