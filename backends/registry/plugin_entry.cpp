// The entry point of the plugin builds of sinew's own backends (backends/CMakeLists.txt compiles
// this file into each one with SINEW_PLUGIN_NAME and SINEW_PLUGIN_REGISTER defined).
#include "sinew/backends/plugin.hpp"

namespace sinew {
void SINEW_PLUGIN_REGISTER(BackendRegistry& registry);  // defined in the backend's own source
}  // namespace sinew

SINEW_BACKEND_PLUGIN(SINEW_PLUGIN_NAME, sinew::SINEW_PLUGIN_REGISTER)
