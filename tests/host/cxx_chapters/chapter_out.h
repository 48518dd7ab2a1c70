// chapter_out.h: how the tests/host/cxx_chapters programs print what they find. Every line is
// "LABEL: VALUE", printed by rank 0 only (cxx_chapters.py compares the lines of two builds); a
// value every rank computes is gathered to rank 0 first. Uses only MPI-2.2 MPI:: members that
// both hosts' own bindings have (Comm::Gather, Get_rank, Get_size), so it is no test of its own.
#ifndef CHAPTER_OUT_H
#define CHAPTER_OUT_H

#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace chapter {

inline int rank() { return MPI::COMM_WORLD.Get_rank(); }

// Rank 0 prints "label: value".
inline void one(const char* label, const std::string& value)
{
    if (rank() == 0) {
        std::printf("%s: %s\n", label, value.c_str());
        std::fflush(stdout);
    }
}

inline void one(const char* label, long value)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%ld", value);
    one(label, std::string(buf));
}

// Every rank's value, printed by rank 0 as "label: v0 v1 v2 v3" (collective over COMM_WORLD).
inline void all(const char* label, int value)
{
    const int n = MPI::COMM_WORLD.Get_size();
    std::vector<int> values(n);
    MPI::COMM_WORLD.Gather(&value, 1, MPI::INT, &values[0], 1, MPI::INT, 0);
    std::string line;
    for (int i = 0; i < n; i++) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%s%d", i ? " " : "", values[i]);
        line += buf;
    }
    one(label, line);
}

// Every rank's short string (at most 63 characters), printed by rank 0 separated by " | ".
inline void all(const char* label, const std::string& value)
{
    const int n = MPI::COMM_WORLD.Get_size();
    char mine[64] = {0};
    std::strncpy(mine, value.c_str(), sizeof mine - 1);
    std::vector<char> every(64 * n);
    MPI::COMM_WORLD.Gather(mine, 64, MPI::CHAR, &every[0], 64, MPI::CHAR, 0);
    std::string line;
    for (int i = 0; i < n; i++)
        line += (i ? " | " : "") + std::string(&every[64 * i]);
    one(label, line);
}

inline std::string ints(const int* v, int n)
{
    std::string s;
    for (int i = 0; i < n; i++) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%s%d", i ? " " : "", v[i]);
        s += buf;
    }
    return s;
}

inline std::string two(int a, int b)
{
    int v[2] = {a, b};
    return ints(v, 2);
}

// The name of an MPI-2.2 error class (MPI::ERR_*), or "class <n>".
inline std::string error_class_name(int c)
{
#define CHAPTER_CLASS(name) if (c == MPI::name) return #name;
    CHAPTER_CLASS(SUCCESS) CHAPTER_CLASS(ERR_BUFFER) CHAPTER_CLASS(ERR_COUNT)
    CHAPTER_CLASS(ERR_TYPE) CHAPTER_CLASS(ERR_TAG) CHAPTER_CLASS(ERR_COMM) CHAPTER_CLASS(ERR_RANK)
    CHAPTER_CLASS(ERR_REQUEST) CHAPTER_CLASS(ERR_ROOT) CHAPTER_CLASS(ERR_GROUP) CHAPTER_CLASS(ERR_OP)
    CHAPTER_CLASS(ERR_TOPOLOGY) CHAPTER_CLASS(ERR_DIMS) CHAPTER_CLASS(ERR_ARG)
    CHAPTER_CLASS(ERR_UNKNOWN) CHAPTER_CLASS(ERR_TRUNCATE) CHAPTER_CLASS(ERR_OTHER)
    CHAPTER_CLASS(ERR_INTERN) CHAPTER_CLASS(ERR_PENDING) CHAPTER_CLASS(ERR_IN_STATUS)
    CHAPTER_CLASS(ERR_ACCESS) CHAPTER_CLASS(ERR_AMODE) CHAPTER_CLASS(ERR_ASSERT)
    CHAPTER_CLASS(ERR_BAD_FILE) CHAPTER_CLASS(ERR_BASE) CHAPTER_CLASS(ERR_CONVERSION)
    CHAPTER_CLASS(ERR_DISP) CHAPTER_CLASS(ERR_DUP_DATAREP) CHAPTER_CLASS(ERR_FILE_EXISTS)
    CHAPTER_CLASS(ERR_FILE_IN_USE) CHAPTER_CLASS(ERR_FILE) CHAPTER_CLASS(ERR_INFO_KEY)
    CHAPTER_CLASS(ERR_INFO_NOKEY) CHAPTER_CLASS(ERR_INFO_VALUE) CHAPTER_CLASS(ERR_INFO)
    CHAPTER_CLASS(ERR_IO) CHAPTER_CLASS(ERR_KEYVAL) CHAPTER_CLASS(ERR_LOCKTYPE)
    CHAPTER_CLASS(ERR_NAME) CHAPTER_CLASS(ERR_NO_MEM) CHAPTER_CLASS(ERR_NOT_SAME)
    CHAPTER_CLASS(ERR_NO_SPACE) CHAPTER_CLASS(ERR_NO_SUCH_FILE) CHAPTER_CLASS(ERR_PORT)
    CHAPTER_CLASS(ERR_QUOTA) CHAPTER_CLASS(ERR_READ_ONLY) CHAPTER_CLASS(ERR_RMA_CONFLICT)
    CHAPTER_CLASS(ERR_RMA_SYNC) CHAPTER_CLASS(ERR_SERVICE) CHAPTER_CLASS(ERR_SIZE)
    CHAPTER_CLASS(ERR_SPAWN) CHAPTER_CLASS(ERR_UNSUPPORTED_DATAREP)
    CHAPTER_CLASS(ERR_UNSUPPORTED_OPERATION) CHAPTER_CLASS(ERR_WIN)
#undef CHAPTER_CLASS
    char buf[32];
    std::snprintf(buf, sizeof buf, "class %d", c);
    return buf;
}

// The name of a type constructor (MPI::COMBINER_*), or "combiner <n>".
inline std::string combiner_name(int c)
{
#define CHAPTER_COMBINER(name) if (c == MPI::COMBINER_##name) return #name;
    CHAPTER_COMBINER(NAMED) CHAPTER_COMBINER(DUP) CHAPTER_COMBINER(CONTIGUOUS)
    CHAPTER_COMBINER(VECTOR) CHAPTER_COMBINER(HVECTOR) CHAPTER_COMBINER(INDEXED)
    CHAPTER_COMBINER(HINDEXED) CHAPTER_COMBINER(INDEXED_BLOCK) CHAPTER_COMBINER(STRUCT)
    CHAPTER_COMBINER(SUBARRAY) CHAPTER_COMBINER(DARRAY) CHAPTER_COMBINER(F90_REAL)
    CHAPTER_COMBINER(F90_COMPLEX) CHAPTER_COMBINER(F90_INTEGER) CHAPTER_COMBINER(RESIZED)
#undef CHAPTER_COMBINER
    char buf[32];
    std::snprintf(buf, sizeof buf, "combiner %d", c);
    return buf;
}

}  // namespace chapter

#endif
