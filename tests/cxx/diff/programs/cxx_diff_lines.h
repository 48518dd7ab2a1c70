// cxx_diff_lines.h: how the C++ differential programs print their facts, one "LABEL: VALUE" line
// each (the format cxxdiffrun.py compares line by line, as tests/diff/c/diff_util.h's for C).
// Included from the programs' own directory, so the peers' builds find it too.
#pragma once

#include <cstdio>
#include <string>

namespace {

void line(const char* label, const std::string& value)
{
    std::printf("%s: %s\n", label, value.c_str());
    std::fflush(stdout);
}

void line(const char* label, long value) { line(label, std::to_string(value)); }

std::string ints(const int* v, int n)
{
    std::string s;
    for (int i = 0; i < n; i++) s += (i ? " " : "") + std::to_string(v[i]);
    return s;
}

}  // namespace
