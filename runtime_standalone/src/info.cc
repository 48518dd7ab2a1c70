// Info objects on the standalone runtime.
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime_internal.h"

namespace mpiattr {

// ---- a communicator's hints (MPI-4.1 §8.4.4; D45) ----
// Kept beside the communicator, as topologies are (D42): the hints the program gave, in the order
// keys were first given. A dup copies them (MPI_Comm_dup_with_info replaces the copy), split and
// create start without, free forgets them. The table is read only while some communicator has
// hints, so programs without them pay one relaxed load per dup and free.
namespace {
std::mutex g_hints_mu;
std::unordered_map<const comm_object*, std::shared_ptr<const hint_list>> g_hints;
std::atomic<std::size_t> g_hints_live{0};

std::shared_ptr<const hint_list> hints_of(const comm_object& c) {
  if (g_hints_live.load(std::memory_order_acquire) == 0) return nullptr;
  std::lock_guard lock(g_hints_mu);
  auto it = g_hints.find(&c);
  return it == g_hints.end() ? nullptr : it->second;
}

void set_hints(const comm_object& c, std::shared_ptr<const hint_list> h) {
  std::lock_guard lock(g_hints_mu);
  if (h == nullptr || h->empty())
    g_hints.erase(&c);
  else
    g_hints[&c] = std::move(h);
  g_hints_live.store(g_hints.size(), std::memory_order_release);
}
}  // namespace

hint_list pairs_of(handle_t info) {
  info_object* o = rt().infos.lookup(info);
  if (o == nullptr) return {};
  std::lock_guard lock(o->mu);
  return o->pairs;
}

hint_list merged_hints(hint_list kept, hint_list given) {
  for (auto& kv : given) {
    auto it = std::find_if(kept.begin(), kept.end(), [&](const auto& m) { return m.first == kv.first; });
    if (it != kept.end())
      it->second = std::move(kv.second);
    else
      kept.push_back(std::move(kv));
  }
  return kept;
}

status new_info(hint_list pairs, handle_t& out) {
  auto* o = new info_object;  // (out of memory: nothing made, D65)
  o->pairs = std::move(pairs);
  return insert_new(rt().infos, o, out, "info objects");
}

void comm_hints_copy(const comm_object& from, comm_object& to) {
  if (auto h = hints_of(from)) set_hints(to, std::move(h));
}

void comm_hints_drop(const comm_object& c) {
  if (g_hints_live.load(std::memory_order_acquire) != 0) set_hints(c, nullptr);
}

void comm_hints_replace(const comm_object& c, handle_t info) {
  set_hints(c, std::make_shared<const hint_list>(pairs_of(info)));
}

namespace api {

// ---- info objects ----

namespace {

// The info object an info routine works on; MPI_INFO_NULL and freed handles are MPI_ERR_INFO.
status find_info(handle_t info, info_object*& out) {
  out = rt().infos.lookup(info);
  if (out != nullptr) return status::ok();
  if (info == h::info_null) return fail(MPI_ERR_INFO, "the info argument is MPI_INFO_NULL");
  return fail(MPI_ERR_INFO, "info handle 0x%x is not valid (freed, or not an info)", info);
}

status check_key(const char* key) {
  std::size_t n = std::strlen(key);
  if (n == 0) return fail(MPI_ERR_INFO_KEY, "the key is empty");
  if (n > MPI_MAX_INFO_KEY)
    return fail(MPI_ERR_INFO_KEY, "the key has %zu characters; MPI_MAX_INFO_KEY is %d", n, MPI_MAX_INFO_KEY);
  return status::ok();
}

// The info object and a valid key, for the routines that take both.
status find_info_key(handle_t info, const char* key, info_object*& out) {
  if (status st = find_info(info, out); !st.is_ok()) return st;
  return check_key(key);
}

const std::string* find_value(const info_object& o, const char* key) {
  for (const auto& kv : o.pairs)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

}  // namespace

status info_create(handle_t& info) { return new_info({}, info); }

status info_set(handle_t info, const char* key, const char* value) {
  info_object* o = nullptr;
  if (status st = find_info_key(info, key, o); !st.is_ok()) return st;
  std::size_t n = std::strlen(value);
  if (n > MPI_MAX_INFO_VAL)
    return fail(MPI_ERR_INFO_VALUE, "the value has %zu characters; MPI_MAX_INFO_VAL is %d", n, MPI_MAX_INFO_VAL);
  if (o->predefined) return fail(MPI_ERR_INFO, "MPI_INFO_ENV cannot be changed");
  std::lock_guard lock(o->mu);
  for (auto& kv : o->pairs)
    if (kv.first == key) {
      kv.second = value;
      return status::ok();
    }
  o->pairs.emplace_back(key, value);
  return status::ok();
}

status info_delete(handle_t info, const char* key) {
  info_object* o = nullptr;
  if (status st = find_info_key(info, key, o); !st.is_ok()) return st;
  if (o->predefined) return fail(MPI_ERR_INFO, "MPI_INFO_ENV cannot be changed");
  std::lock_guard lock(o->mu);
  for (auto it = o->pairs.begin(); it != o->pairs.end(); ++it)
    if (it->first == key) {
      o->pairs.erase(it);
      return status::ok();
    }
  return fail(MPI_ERR_INFO_NOKEY, "the info object has no key \"%s\"", key);
}

status info_get(handle_t info, const char* key, int valuelen, char* value, bool& flag) {
  info_object* o = nullptr;
  if (status st = find_info_key(info, key, o); !st.is_ok()) return st;
  if (valuelen < 0) return fail(MPI_ERR_ARG, "valuelen = %d is negative", valuelen);
  std::lock_guard lock(o->mu);
  const std::string* v = find_value(*o, key);
  flag = v != nullptr;
  if (v != nullptr) {
    std::size_t n = std::min(v->size(), static_cast<std::size_t>(valuelen));  // C: valuelen + 1 bytes
    std::memcpy(value, v->data(), n);
    value[n] = '\0';
  }
  return status::ok();
}

status info_get_valuelen(handle_t info, const char* key, int& valuelen, bool& flag) {
  info_object* o = nullptr;
  if (status st = find_info_key(info, key, o); !st.is_ok()) return st;
  std::lock_guard lock(o->mu);
  const std::string* v = find_value(*o, key);
  flag = v != nullptr;
  if (v != nullptr) valuelen = static_cast<int>(v->size());
  return status::ok();
}

status info_get_string(handle_t info, const char* key, int& buflen, char* value, bool& flag) {
  info_object* o = nullptr;
  if (status st = find_info_key(info, key, o); !st.is_ok()) return st;
  if (buflen < 0) return fail(MPI_ERR_ARG, "buflen = %d is negative", buflen);
  std::lock_guard lock(o->mu);
  const std::string* v = find_value(*o, key);
  flag = v != nullptr;
  if (v == nullptr) return status::ok();
  // buflen counts the terminating null; 0 asks for the length only.
  if (buflen > 0) {
    std::size_t n = std::min(v->size(), static_cast<std::size_t>(buflen - 1));
    std::memcpy(value, v->data(), n);
    value[n] = '\0';
  }
  buflen = static_cast<int>(v->size()) + 1;
  return status::ok();
}

status info_get_nkeys(handle_t info, int& nkeys) {
  info_object* o = nullptr;
  if (status st = find_info(info, o); !st.is_ok()) return st;
  std::lock_guard lock(o->mu);
  nkeys = static_cast<int>(o->pairs.size());
  return status::ok();
}

status info_get_nthkey(handle_t info, int n, char* key) {
  info_object* o = nullptr;
  if (status st = find_info(info, o); !st.is_ok()) return st;
  std::lock_guard lock(o->mu);
  if (n < 0 || static_cast<std::size_t>(n) >= o->pairs.size())
    return fail(MPI_ERR_ARG, "n = %d is not between 0 and the number of keys (%zu) - 1", n, o->pairs.size());
  const std::string& k = o->pairs[static_cast<std::size_t>(n)].first;
  std::memcpy(key, k.c_str(), k.size() + 1);
  return status::ok();
}

status info_dup(handle_t info, handle_t& newinfo) {
  info_object* o = nullptr;
  if (status st = find_info(info, o); !st.is_ok()) return st;
  std::vector<std::pair<std::string, std::string>> copy;
  {
    std::lock_guard lock(o->mu);
    copy = o->pairs;
  }
  return new_info(std::move(copy), newinfo);
}

status info_free(handle_t& info) {
  info_object* o = nullptr;
  if (status st = find_info(info, o); !st.is_ok()) return st;
  if (o->predefined) return fail(MPI_ERR_INFO, "MPI_INFO_ENV cannot be freed");
  rt().infos.erase(o);
  delete o;
  info = h::info_null;
  return status::ok();
}

// Updates the hints info gives and keeps the others (MPI-4.1 §8.4.4); MPI_INFO_NULL gives none.
status comm_set_info(comm_object& comm, handle_t info) {
  if (status st = check_info(info); !st.is_ok()) return st;
  auto h = hints_of(comm);
  set_hints(comm, std::make_shared<const hint_list>(merged_hints(h ? *h : hint_list{}, pairs_of(info))));
  return status::ok();
}

// A new info with every hint the communicator has (D45: one process uses none, and reports all).
status comm_get_info(comm_object& comm, handle_t& info_used) {
  auto h = hints_of(comm);
  return new_info(h ? *h : hint_list{}, info_used);
}

// MPI-4.1 §11.4: what MPI_INFO_ENV would hold had the process been started with these arguments
// (D45): the command and its arguments, one process, and where it runs.
status info_create_env(int argc, char** argv, handle_t& info) {
  if (argc < 0) return fail(MPI_ERR_ARG, "argc = %d is negative", argc);
  if (argc > 0 && argv == nullptr) return fail(MPI_ERR_ARG, "argv is NULL and argc is %d", argc);
  for (int i = 0; i < argc; ++i)
    if (argv[i] == nullptr) return fail(MPI_ERR_ARG, "argv[%d] is NULL and argc is %d", i, argc);
  hint_list env;
  if (argc > 0) env.emplace_back("command", argv[0]);
  if (argc > 1) {
    std::string args;
    for (int i = 1; i < argc; ++i) args += (i > 1 ? " " : "") + std::string(argv[i]);
    env.emplace_back("argv", std::move(args));
  }
  env.emplace_back("maxprocs", "1");
  char host[256] = {0};
  if (gethostname(host, sizeof host - 1) == 0 && host[0] != '\0') env.emplace_back("host", host);
  struct utsname u;
  if (uname(&u) == 0 && u.machine[0] != '\0') env.emplace_back("arch", u.machine);
  std::vector<char> cwd(4096);
  if (getcwd(cwd.data(), cwd.size()) != nullptr) env.emplace_back("wdir", cwd.data());
  env.emplace_back("thread_level", thread_level_name(rt().thread_level));
  for (auto& kv : env)  // a value longer than an info holds is cut (a deep working directory)
    if (kv.second.size() > static_cast<std::size_t>(MPI_MAX_INFO_VAL)) kv.second.resize(MPI_MAX_INFO_VAL);
  return new_info(std::move(env), info);
}

// MPI_Get_hw_resource_info (MPI-4.1 §11.4, D55): the standalone runtime knows nothing of the
// hardware it could promise, so the info is new and empty (as Open MPI's); the caller frees it.
status get_hw_resource_info(handle_t& hw_info) { return new_info({}, hw_info); }

}  // namespace api
}  // namespace mpiattr
