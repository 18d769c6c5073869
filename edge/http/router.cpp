#include "edge/http/router.h"

namespace edge {

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> parts;
  if (!path.empty() && path.front() == '/') path.remove_prefix(1);
  if (!path.empty() && path.back() == '/') path.remove_suffix(1);
  if (path.empty()) return parts;
  while (true) {
    std::size_t slash = path.find('/');
    parts.push_back(path.substr(0, slash));
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return parts;
}

void Router::add(std::string method, std::string_view pattern, Handler handler, RouteOptions options) {
  Route route{std::move(method), {}, std::move(handler), std::move(options)};
  for (std::string_view part : split_path(pattern)) {
    Segment s;
    if (part.size() > 2 && part.front() == '{' && part.back() == '}') {
      s.capture = true;
      std::string_view name = part.substr(1, part.size() - 2);
      if (!name.empty() && name.back() == '*') {
        s.rest = true;
        name.remove_suffix(1);
      }
      s.text = std::string(name);
    } else {
      s.text = std::string(part);
    }
    route.segments.push_back(std::move(s));
  }
  const std::size_t index = routes_.size();
  const bool open = route.segments.empty() || route.segments.front().capture;
  if (open) {
    open_routes_.push_back(index);
    for (auto& [first, list] : by_first_) list.push_back(index);
  } else {
    auto [it, added] = by_first_.try_emplace(route.segments.front().text, open_routes_);
    it->second.push_back(index);
  }
  routes_.push_back(std::move(route));
}

const std::vector<std::size_t>& Router::candidates(std::string_view first) const {
  auto it = by_first_.find(first);
  return it == by_first_.end() ? open_routes_ : it->second;
}

bool Router::matches(const Route& route, const std::vector<std::string_view>& parts, Request* fill) {
  std::size_t n = route.segments.size();
  bool has_rest = n > 0 && route.segments.back().rest;
  if (has_rest ? parts.size() < n : parts.size() != n) return false;
  for (std::size_t i = 0; i < n; ++i) {
    const Segment& s = route.segments[i];
    if (s.rest) {
      if (fill) {
        std::string rest;
        for (std::size_t j = i; j < parts.size(); ++j) {
          if (j > i) rest.push_back('/');
          rest.append(parts[j]);
        }
        fill->params[s.text] = std::move(rest);
      }
      return true;
    }
    if (s.capture) {
      if (parts[i].empty()) return false;
      if (fill) fill->params[s.text] = std::string(parts[i]);
    } else if (s.text != parts[i]) {
      return false;
    }
  }
  return true;
}

Router::Match Router::match(Request& req) const {
  std::vector<std::string_view> parts = split_path(req.path);
  std::string_view method = req.method == "HEAD" ? std::string_view("GET") : std::string_view(req.method);
  Match m;
  for (std::size_t index : candidates(parts.empty() ? std::string_view() : parts.front())) {
    const Route& route = routes_[index];
    if (!matches(route, parts, nullptr)) continue;
    if (route.method == method) {
      matches(route, parts, &req);
      m.kind = Match::found;
      m.handler = &route.handler;
      m.options = &route.options;
      return m;
    }
    if (m.allow.find(route.method) == std::string::npos) {
      if (!m.allow.empty()) m.allow += ", ";
      m.allow += route.method;
    }
  }
  if (!m.allow.empty()) m.kind = Match::method_not_allowed;
  return m;
}

}  // namespace edge
