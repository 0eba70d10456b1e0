#pragma once
// The push-constant block of a compiled shader as the compiler laid it out, read from its
// SPIR-V (names are stripped by glslc -O; offsets are not): the byte offset of every member
// of the block and, for a member that is a struct, of that struct's members. Tests compare
// them with the C++ mirrors' offsetof, so a mirror and its GLSL block cannot drift apart.

#include <cstdint>
#include <map>
#include <span>
#include <stdexcept>
#include <vector>

namespace attnviz::testing {

struct PushLayout {
  std::vector<std::uint32_t> offsets;              // of the block's members, in order
  std::vector<std::vector<std::uint32_t>> nested;  // per member: its members' offsets (struct members only)
};

inline PushLayout push_constant_layout(std::span<const std::uint32_t> spirv) {
  constexpr std::uint32_t kOpTypeStruct = 30, kOpTypePointer = 32, kOpVariable = 59, kOpMemberDecorate = 72;
  constexpr std::uint32_t kPushConstant = 9, kOffset = 35;
  std::map<std::uint32_t, std::vector<std::uint32_t>> structs;  // id → member type ids
  std::map<std::uint32_t, std::uint32_t> pointee;               // pointer type id → type id
  std::map<std::uint32_t, std::map<std::uint32_t, std::uint32_t>> member_offsets;
  std::uint32_t block_pointer = 0;
  for (std::size_t i = 5; i < spirv.size();) {
    const std::uint32_t count = spirv[i] >> 16;
    const std::uint32_t op = spirv[i] & 0xffffu;
    if (count == 0 || i + count > spirv.size()) throw std::runtime_error("malformed SPIR-V");
    const auto args = spirv.subspan(i + 1, count - 1);
    if (op == kOpTypeStruct) structs[args[0]].assign(args.begin() + 1, args.end());
    if (op == kOpTypePointer) pointee[args[0]] = args[2];
    if (op == kOpVariable && args[2] == kPushConstant) block_pointer = args[0];
    if (op == kOpMemberDecorate && args[2] == kOffset) member_offsets[args[0]][args[1]] = args[3];
    i += count;
  }
  if (block_pointer == 0) throw std::runtime_error("no push-constant block");
  const std::uint32_t block = pointee.at(block_pointer);
  PushLayout layout;
  const std::vector<std::uint32_t>& members = structs.at(block);
  for (std::uint32_t m = 0; m < members.size(); ++m) {
    layout.offsets.push_back(member_offsets.at(block).at(m));
    std::vector<std::uint32_t> inner;
    if (auto nested = structs.find(members[m]); nested != structs.end()) {
      for (std::uint32_t k = 0; k < nested->second.size(); ++k) inner.push_back(member_offsets.at(members[m]).at(k));
    }
    layout.nested.push_back(inner);
  }
  return layout;
}

}  // namespace attnviz::testing
