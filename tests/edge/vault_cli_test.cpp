// env-vault, the command-line client (docs/env-vault.md, "Command-line client"), run as a user runs it
// against a real edge: push reads a .env file (comments, export, quotes; --public, --prune, --base-version),
// pull writes one (mode 0600) that reads back the same, run starts a command with the variables in its
// environment and passes its exit status through; usage and server errors end with status 2 and 1.

#include <sys/stat.h>

#include <fstream>

#include "core/vault/dotenv.h"
#include "edge_process.h"
#include "vault_support.h"

using namespace vault_test;

TEST_SUITE_BEGIN("vault");

namespace {

struct CliEdge : VaultEdge {
  std::string tok = token();
  std::string dir = edge.dir.path;

  // The client with the token and address in its environment; stderr joined to the captured output.
  testing::Run cli(const std::string& args, const std::string& token_value = "") {
    return testing::run("cd '" + dir + "' && ENV_VAULT_URL='" + edge.url() + "' ENV_VAULT_TOKEN='" +
                        (token_value.empty() ? tok : token_value) + "' " + ENV_VAULT_BIN + " " + args +
                        " 2>&1");
  }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(dir + "/" + name, std::ios::binary) << text;
  }
  std::string read(const std::string& name) {
    std::ifstream in(dir + "/" + name, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
};

}  // namespace

TEST_CASE("vault cli: push reads a .env file, pull writes one that reads back the same") {
  CliEdge t;
  t.write(".env",
          "# app settings\n"
          "export DATABASE_URL=postgres://u@db:5432/app\n"
          "GREETING=\"hello\\nworld\"\n"
          "QUOTED='it is $HOME'\n"
          "API_BASE=https://api.example # shown to browsers\n");
  auto pushed = t.cli("push --public API_BASE");
  CHECK(pushed.exit_code == 0);
  CHECK(pushed.out == "env-vault: pushed version 1: 4 variables (4 added, 0 changed, 0 removed)\n");
  CHECK(
      core::to_json(t.fetch(t.tok).data()) ==
      R"({"version":1,"variables":{"API_BASE":{"value":"https://api.example","public":true},)"
      R"("DATABASE_URL":{"value":"postgres://u@db:5432/app","public":false},)"
      R"("GREETING":{"value":"hello\nworld","public":false},"QUOTED":{"value":"it is $HOME","public":false}}})");

  auto pulled = t.cli("pull --file pulled.env");
  CHECK(pulled.exit_code == 0);
  CHECK(pulled.out == "env-vault: wrote 4 variables of version 1 to pulled.env\n");
  const std::string text = t.read("pulled.env");
  CHECK(text.rfind("# pulled by env-vault: version 1\n", 0) == 0);
  auto back = core::vault::parse_dotenv(text);
  REQUIRE(back.ok());
  CHECK(*back == core::vault::DotenvEntries{{"API_BASE", "https://api.example"},
                                            {"DATABASE_URL", "postgres://u@db:5432/app"},
                                            {"GREETING", "hello\nworld"},
                                            {"QUOTED", "it is $HOME"}});
  struct stat st {};
  REQUIRE(::stat((t.dir + "/pulled.env").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);

  auto public_only = t.cli("pull --public-only --file public.env");
  CHECK(public_only.exit_code == 0);
  CHECK(t.read("public.env") == "# pulled by env-vault: version 1\nAPI_BASE=https://api.example\n");

  // --prune drops what the file no longer names; without it they stay.
  t.write("small.env", "DATABASE_URL=postgres://u@db:5432/app\n");
  CHECK(t.cli("push --file small.env").out ==
        "env-vault: pushed version 2: 4 variables (0 added, 0 changed, 0 removed)\n");
  CHECK(t.cli("push --file small.env --prune").out ==
        "env-vault: pushed version 3: 1 variables (0 added, 0 changed, 3 removed)\n");
}

TEST_CASE("vault cli: run starts the command with the variables and passes its exit status through") {
  CliEdge t;
  REQUIRE(t.push(t.tok, R"({"variables":{"GREETING":"hi there","PATH_LIKE":"a:b"}})").status == 200);
  auto ran = t.cli(
      "run -- sh -c 'printf \"%s|%s|%s\" \"$GREETING\" \"$PATH_LIKE\" \"${ENV_VAULT_TOKEN:-unset}\"; exit "
      "7'");
  CHECK(ran.exit_code == 7);
  CHECK(ran.out == "hi there|a:b|unset");
  auto missing = t.cli("run definitely-not-a-command-xyz");
  CHECK(missing.exit_code == 127);
  CHECK(missing.out.find("cannot run definitely-not-a-command-xyz") != std::string::npos);
}

TEST_CASE("vault cli: usage errors exit 2, server refusals exit 1 with the server's reason") {
  CliEdge t;
  auto help = t.cli("--help");
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("Usage:") != std::string::npos);
  CHECK(help.out.find("ENV_VAULT_TOKEN") != std::string::npos);
  CHECK(t.cli("").exit_code == 2);
  CHECK(t.cli("frobnicate").exit_code == 2);
  CHECK(t.cli("run").exit_code == 2);
  auto no_token = testing::run(std::string("ENV_VAULT_URL=http://127.0.0.1:1 ENV_VAULT_TOKEN= ") +
                               ENV_VAULT_BIN + " pull 2>&1");
  CHECK(no_token.exit_code == 2);
  CHECK(no_token.out.find("no token: set ENV_VAULT_TOKEN or pass --token-file") != std::string::npos);

  auto unknown = t.cli("pull", "stk_env_" + std::string(48, 'b'));
  CHECK(unknown.exit_code == 1);
  CHECK(unknown.out == "env-vault: unknown env vault token (HTTP 401)\n");

  t.write(".env", "A=1\n");
  REQUIRE(t.cli("push").exit_code == 0);
  auto stale = t.cli("push --base-version 0");
  CHECK(stale.exit_code == 1);
  CHECK(stale.out == "env-vault: baseVersion 0 is stale: the current version is 1 (HTTP 409)\n");
  t.write("bad.env", "A=1\nNOT A LINE\n");
  auto bad = t.cli("push --file bad.env");
  CHECK(bad.exit_code == 1);
  CHECK(bad.out == "env-vault: bad.env: line 2: expected KEY=VALUE\n");

  // --token-file instead of the environment.
  t.write("token.txt", t.tok + "\n");
  auto from_file = testing::run("cd '" + t.dir + "' && ENV_VAULT_TOKEN= " + ENV_VAULT_BIN + " --url " +
                                t.edge.url() + " --token-file token.txt pull --file f.env 2>&1");
  CHECK(from_file.exit_code == 0);
  CHECK(t.read("f.env").find("A=1\n") != std::string::npos);
}

TEST_SUITE_END();
