// SINEW_TEST_ASAN is defined when the test is built with AddressSanitizer (GCC's
// __SANITIZE_ADDRESS__ or clang's __has_feature), which replaces the allocator itself: the tests
// that count allocations by replacing operator new or malloc skip their body there.
#pragma once

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SINEW_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SINEW_TEST_ASAN 1
#endif
