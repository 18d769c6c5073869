// The mail template engine (core/mail/) on the receipt workload of shared/bench/templates, under that
// folder's contract (its README, "Measuring the platform's engine against it"), so that run.sh can set it
// beside mstch and kainjow/Mustache in one run:
//   render/platform        template compiled once; render() per iteration into a fresh std::string
//   parse_render/platform  Template::compile() + render() per iteration
// Reads $TEMPLATES_DIR/receipt.single.html, data.json and expected.html (default: the current directory).
// data.json is parsed by Boost.JSON once, outside the loops: the engine renders the boost::json::object the
// send path holds, so there is no conversion step to time. Before timing, the output is checked against
// expected.html (exit 1 on a difference) and written to $RENDER_OUT_DIR/platform.html when that is set.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <boost/json.hpp>

#include "core/json.h"
#include "core/mail/render.h"
#include "core/mail/template.h"

namespace {

using core::mail::Escaping;
using core::mail::Template;

std::string templates_dir() {
  const char* dir = std::getenv("TEMPLATES_DIR");
  return dir != nullptr && *dir != '\0' ? dir : ".";
}

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  out = text.str();
  return true;
}

struct Workload {
  std::string text;
  std::string expected;
  boost::json::object variables;
};

Workload workload;

void render_platform(benchmark::State& state) {
  const Template tpl = *Template::compile(workload.text);
  for (auto _ : state) {
    auto out = core::mail::render(tpl, workload.variables, Escaping::html);
    benchmark::DoNotOptimize(out->data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(workload.expected.size()));
}

void parse_render_platform(benchmark::State& state) {
  for (auto _ : state) {
    auto tpl = Template::compile(workload.text);
    auto out = core::mail::render(*tpl, workload.variables, Escaping::html);
    benchmark::DoNotOptimize(out->data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(workload.expected.size()));
}

// Loads the workload and checks one render; false (after a message on stderr) when anything is off.
bool prepare() {
  const std::string dir = templates_dir();
  std::string data;
  if (!read_file(dir + "/receipt.single.html", workload.text) || !read_file(dir + "/data.json", data) ||
      !read_file(dir + "/expected.html", workload.expected)) {
    std::fprintf(stderr, "template_bench: cannot read the workload in %s (set TEMPLATES_DIR)\n", dir.c_str());
    return false;
  }
  auto variables = core::parse_json_object(data);
  if (!variables) {
    std::fprintf(stderr, "template_bench: data.json: %s\n", variables.error().message.c_str());
    return false;
  }
  workload.variables = std::move(variables).value();
  auto tpl = Template::compile(workload.text);
  if (!tpl) {
    std::fprintf(stderr, "template_bench: %s\n", tpl.error().message.c_str());
    return false;
  }
  auto out = core::mail::render(*tpl, workload.variables, Escaping::html);
  if (!out) {
    std::fprintf(stderr, "template_bench: %s\n", out.error().message.c_str());
    return false;
  }
  if (const char* out_dir = std::getenv("RENDER_OUT_DIR"); out_dir != nullptr && *out_dir != '\0') {
    std::ofstream file(std::string(out_dir) + "/platform.html", std::ios::binary);
    file << *out;
    if (!file) {
      std::fprintf(stderr, "template_bench: cannot write %s/platform.html\n", out_dir);
      return false;
    }
  }
  if (*out != workload.expected) {
    std::fprintf(stderr, "template_bench: output differs from expected.html (%zu vs %zu bytes)\n",
                 out->size(), workload.expected.size());
    return false;
  }
  std::fprintf(stderr, "output check platform: OK (%zu bytes)\n", out->size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (!prepare()) return 1;
  benchmark::RegisterBenchmark("render/platform", render_platform);
  benchmark::RegisterBenchmark("parse_render/platform", parse_render_platform);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
