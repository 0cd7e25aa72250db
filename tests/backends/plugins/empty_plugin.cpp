// A shared library named like a plugin that is not one (tests/backends/plugin_loader_test.cpp):
// it exports no sinew_backend_plugin_v1.
extern "C" __attribute__((visibility("default"))) int sinew_test_not_a_plugin() { return 42; }
