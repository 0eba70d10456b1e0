#pragma once
// Buffers that shaders read and write, filled from and read back to the host: in place when the
// device memory is mapped (lavapipe, integrated GPUs), otherwise through a host-visible staging
// buffer and one copy, so that a discrete GPU's shaders work in its own memory rather than
// reaching across the bus for every load and store.

#include <vulkan/vulkan.h>

#include <cstddef>

#include "core/vk/buffer.h"
#include "core/vk/commands.h"

namespace attnviz::vk {

// How bytes reach a device-local buffer. Mapped when it is host-visible; Staged forces the
// copy (tests take the discrete-GPU path on lavapipe with it).
enum class Transfer { Automatic, Staged };

// A device-local buffer of at least `bytes` (and 16) with `usage`, holding `data`. A staged
// upload is submitted on `stream` and waited for; shaders of later submissions read it.
Buffer upload_buffer(const Context& context, const void* data, std::size_t bytes, VkBufferUsageFlags usage,
                     CommandStream& stream, Transfer transfer = Transfer::Automatic);

// A device-local buffer of `bytes` (at least 16) that shaders write and the host reads back
// with read_back().
Buffer output_buffer(const Context& context, std::size_t bytes, VkBufferUsageFlags usage);

// The first `bytes` of `buffer`, which the shaders of `stream`'s last submission wrote (and
// which that submission ended with barriers::device_to_host): from its mapping, or through a
// staging copy submitted on `stream`.
void read_back(const Context& context, const Buffer& buffer, void* out, std::size_t bytes, CommandStream& stream,
               Transfer transfer = Transfer::Automatic);

}  // namespace attnviz::vk
