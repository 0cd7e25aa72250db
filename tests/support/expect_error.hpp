// EXPECT_SINEW_ERROR(statement, fragment): the statement throws sinew::Error whose message
// contains every given fragment.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "sinew/core/error.hpp"

#define EXPECT_SINEW_ERROR(statement, ...)                                 \
  do {                                                                     \
    bool sinew_thrown = false;                                             \
    try {                                                                  \
      statement;                                                           \
    } catch (const ::sinew::Error& e) {                                    \
      sinew_thrown = true;                                                 \
      const std::string sinew_msg = e.what();                              \
      for (const char* fragment : {__VA_ARGS__})                           \
        EXPECT_NE(sinew_msg.find(fragment), std::string::npos)             \
            << "message '" << sinew_msg << "' lacks '" << fragment << "'"; \
    }                                                                      \
    EXPECT_TRUE(sinew_thrown) << #statement " did not throw sinew::Error"; \
  } while (0)
