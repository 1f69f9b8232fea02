// The fuzz targets, as plain functions: each libFuzzer entry point (entry_<name>.cpp) calls one,
// and the replay test (replay_main.cpp) runs the checked-in corpora and every crash reproducer
// through the same functions on the normal build. A target returns normally for any input the
// code rejects with mt::InputError; anything else (another exception, a sanitizer report, a
// round trip that does not compare equal) is a finding and aborts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace mt::fuzz {

// The image readers: the bytes as a .bin image, as .hex text and as table JSON.
void image(const uint8_t* data, size_t size);
// The bytes as an image set's manifest.json, next to a valid set's node files.
void manifest(const uint8_t* data, size_t size);
// The bytes as a topology JSON file ('{' first) or a topology spec string.
void topology(const uint8_t* data, size_t size);
// The bytes pick a small topology (a builder, or a random switch network) and plan options;
// plan, verify, compile, encode, decode and compare must agree.
void plan(const uint8_t* data, size_t size);

using Target = void (*)(const uint8_t*, size_t);
// The target called `name` (image, manifest, topology, plan), or nullptr.
Target find(const std::string& name);

}  // namespace mt::fuzz
