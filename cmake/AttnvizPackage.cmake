# `cpack -G DEB` in a build folder: a Debian bookworm package of what `cmake --install` puts in
# place (app/install/CMakeLists.txt). Build it from a portable build (-DATTNVIZ_NATIVE=OFF), as
# CI does: a -march=native binary would run only on processors like the build machine's.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME attnviz)
set(CPACK_PACKAGE_VENDOR "the attnviz developers")
set(CPACK_PACKAGE_CONTACT "attnviz developers <attnviz@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "see how transformer attention is computed")
set(CPACK_PACKAGE_DESCRIPTION
    "attnviz makes the attention mechanism of transformers visible: type a sentence in English or\n"
    "Korean, edit embeddings, weights, heads and masks, and watch live heatmaps of the scores,\n"
    "weights and outputs of every head, computed with Vulkan compute shaders or Eigen.")
set(CPACK_PACKAGE_INSTALL_DIRECTORY /usr)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE https://github.com/attnviz/attnviz)
# The shared libraries the binary links, found by dpkg-shlibdeps; then what it opens at run time:
# a Vulkan driver (Mesa's, lavapipe included, draws on any machine) and fonts for Latin and Hangul.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libvulkan1, mesa-vulkan-drivers | vulkan-icd, fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-nanum")
set(CPACK_STRIP_FILES ON)
include(CPack)
