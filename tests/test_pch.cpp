// The source that builds the test binaries' shared precompiled header (tests/CMakeLists.txt,
// attnviz_test_pch); it has no code of its own.
