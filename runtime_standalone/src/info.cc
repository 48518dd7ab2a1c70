// Info objects on the standalone runtime.
#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "runtime_internal.h"

namespace mpiattr {
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

status new_info(std::vector<std::pair<std::string, std::string>> pairs, handle_t& out) {
  auto* o = new info_object;
  o->pairs = std::move(pairs);
  return insert_new(rt().infos, o, out, "info objects");
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

}  // namespace api
}  // namespace mpiattr
