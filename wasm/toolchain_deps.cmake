# Third-party dependencies of the wasm (Emscripten) build, included by the top-level CMakeLists.txt.
# Defines the same target names the native build gets from the system:
#   platform_sodium       libsodium, compiled with emcc from Debian's source package (portable C, no asm)
#   platform_boost_json   Boost.JSON, header-only through one translation unit including <boost/json/src.hpp>
#   platform_bearssl      BearSSL's RSA and ECDSA P-256 verification, compiled with emcc from Debian's source package
# and sets PLATFORM_WASM_DOCTEST_INCLUDE (the include folder holding doctest/doctest.h).
# Sources and headers come from scripts/fetch-wasm-deps.sh, which fills the ignored folder .deps/.
#
# Exception mode: -fwasm-exceptions for every C++ translation unit and every link (see docs/wasm.md).

set(PLATFORM_DEPS_DIR "${PROJECT_SOURCE_DIR}/.deps" CACHE PATH "Folder filled by scripts/fetch-wasm-deps.sh")
set(PLATFORM_WASM_INCLUDE "${PLATFORM_DEPS_DIR}/wasm-include")
set(PLATFORM_SODIUM_SOURCE "${PLATFORM_DEPS_DIR}/src/libsodium")
set(PLATFORM_BEARSSL_SOURCE "${PLATFORM_DEPS_DIR}/src/bearssl")

if(NOT EXISTS "${PLATFORM_WASM_INCLUDE}/boost/json.hpp" OR NOT EXISTS "${PLATFORM_WASM_INCLUDE}/doctest/doctest.h"
   OR NOT EXISTS "${PLATFORM_SODIUM_SOURCE}/src/libsodium/include/sodium/version.h.in"
   OR NOT EXISTS "${PLATFORM_BEARSSL_SOURCE}/inc/bearssl.h")
  message(FATAL_ERROR "wasm dependencies are missing from ${PLATFORM_DEPS_DIR}: run scripts/fetch-wasm-deps.sh")
endif()

# --- exception mode ----------------------------------------------------------------------------------------
# Emscripten's default (DISABLE_EXCEPTION_CATCHING=1) compiles catch blocks out, so any throw aborts the
# module. The core never throws, but Boost.JSON may (allocation failure, value::at, ...), so catching must
# work: native wasm exceptions, which node 20 and current browsers run.
add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fwasm-exceptions>)
add_link_options(-fwasm-exceptions)

set(PLATFORM_WASM_DOCTEST_INCLUDE "${PLATFORM_WASM_INCLUDE}")

# emcc runs node scripts at link time (acorn-optimizer.js) that need Debian's node modules (acorn) on
# NODE_PATH. Setting it on every link keeps `cmake --build` working from a shell without NODE_PATH.
set(CMAKE_CXX_LINKER_LAUNCHER "${CMAKE_COMMAND};-E;env;NODE_PATH=/usr/share/nodejs")

# --- libsodium ---------------------------------------------------------------------------------------------
set(_sodium_src "${PLATFORM_SODIUM_SOURCE}/src/libsodium")
file(GLOB_RECURSE _sodium_c_files CONFIGURE_DEPENDS "${_sodium_src}/*.c")

# version.h the way libsodium's configure writes it (values from its configure.ac).
file(STRINGS "${PLATFORM_SODIUM_SOURCE}/configure.ac" _sodium_ac_init REGEX "^AC_INIT\\(\\[libsodium\\],\\[")
string(REGEX REPLACE "^AC_INIT\\(\\[libsodium\\],\\[([0-9.]+)\\].*" "\\1" VERSION "${_sodium_ac_init}")
file(STRINGS "${PLATFORM_SODIUM_SOURCE}/configure.ac" _sodium_major REGEX "^SODIUM_LIBRARY_VERSION_MAJOR=")
file(STRINGS "${PLATFORM_SODIUM_SOURCE}/configure.ac" _sodium_minor REGEX "^SODIUM_LIBRARY_VERSION_MINOR=")
string(REGEX REPLACE ".*=" "" SODIUM_LIBRARY_VERSION_MAJOR "${_sodium_major}")
string(REGEX REPLACE ".*=" "" SODIUM_LIBRARY_VERSION_MINOR "${_sodium_minor}")
set(SODIUM_LIBRARY_MINIMAL_DEF "")
# The public headers are copied next to the generated version.h: sodium/version.h includes "export.h" from its
# own folder, as in an installed libsodium.
set(_sodium_generated "${CMAKE_BINARY_DIR}/third_party/libsodium/include")
file(COPY "${_sodium_src}/include/" DESTINATION "${_sodium_generated}" PATTERN "*.in" EXCLUDE)
configure_file("${_sodium_src}/include/sodium/version.h.in" "${_sodium_generated}/sodium/version.h" @ONLY)
unset(VERSION)

add_library(platform_sodium STATIC ${_sodium_c_files})
target_include_directories(platform_sodium PRIVATE "${_sodium_generated}/sodium")
target_include_directories(platform_sodium SYSTEM PUBLIC "${_sodium_generated}")
# Portable C only: no HAVE_*INTRIN_H / HAVE_*_ASM, so every SIMD or assembly file compiles to nothing and the
# reference implementations are used. wasm is little-endian, which libsodium may rely on for speed.
target_compile_definitions(platform_sodium
  PRIVATE CONFIGURED=1 NATIVE_LITTLE_ENDIAN=1
  PUBLIC SODIUM_STATIC)
# Third-party code: replace the project's warning flags (-Wall -Wextra -Wpedantic -Werror) with none.
set_target_properties(platform_sodium PROPERTIES COMPILE_OPTIONS "-O2;-w" C_STANDARD 99)

# --- Boost.JSON --------------------------------------------------------------------------------------------
set(_boost_json_tu "${CMAKE_BINARY_DIR}/third_party/boost_json/boost_json.cpp")
file(CONFIGURE OUTPUT "${_boost_json_tu}" CONTENT "// Boost.JSON's compiled part, built once for the wasm build.\n#include <boost/json/src.hpp>\n")
add_library(platform_boost_json STATIC "${_boost_json_tu}")
# -isystem: Boost's own headers are not held to the project's warning flags.
target_include_directories(platform_boost_json SYSTEM PUBLIC "${PLATFORM_WASM_INCLUDE}")

# --- BearSSL -----------------------------------------------------------------------------------------------
# Only what signature verification needs. RS256 (core/rsa_verify.cpp): the RSA public-key operation and
# PKCS#1 v1.5 signature check of every engine (src/rsa), the big-integer code they run on (src/int) and the
# byte codecs (src/codec). ES256 for WebAuthn (core/auth/webauthn/signature.cpp): the constant-time P-256
# code on 31-bit limbs (ec_p256_m31), ECDSA verification with the i31 big integers (vrfy_asn1, vrfy_raw,
# bits2int), the DER-to-raw signature conversion (ecdsa_atr) and the curve parameters vrfy_raw refers to
# (all three NIST curves, only P-256 is used); 90 small C files. Hashing stays with libsodium. BearSSL's own
# build (conf/, the T0 compiler) is not used: its sources are plain C99 without a configuration step. The
# core picks the i31/m31 engines in wasm (the fastest there; see core/rsa_verify.cpp).
file(GLOB _bearssl_c_files CONFIGURE_DEPENDS
  "${PLATFORM_BEARSSL_SOURCE}/src/rsa/rsa_*_pub.c"
  "${PLATFORM_BEARSSL_SOURCE}/src/rsa/rsa_*_pkcs1_vrfy.c"
  "${PLATFORM_BEARSSL_SOURCE}/src/rsa/rsa_pkcs1_sig_unpad.c"
  "${PLATFORM_BEARSSL_SOURCE}/src/int/*.c"
  "${PLATFORM_BEARSSL_SOURCE}/src/codec/*.c"
  "${PLATFORM_BEARSSL_SOURCE}/src/ec/ec_p256_m31.c"
  "${PLATFORM_BEARSSL_SOURCE}/src/ec/ec_secp*r1.c"
  "${PLATFORM_BEARSSL_SOURCE}/src/ec/ecdsa_i31_vrfy_*.c"
  "${PLATFORM_BEARSSL_SOURCE}/src/ec/ecdsa_i31_bits.c"
  "${PLATFORM_BEARSSL_SOURCE}/src/ec/ecdsa_atr.c")
add_library(platform_bearssl STATIC ${_bearssl_c_files})
target_include_directories(platform_bearssl PRIVATE "${PLATFORM_BEARSSL_SOURCE}/src")
target_include_directories(platform_bearssl SYSTEM PUBLIC "${PLATFORM_BEARSSL_SOURCE}/inc")
# Third-party code: -O2 and no project warning flags, as for libsodium.
set_target_properties(platform_bearssl PROPERTIES COMPILE_OPTIONS "-O2;-w" C_STANDARD 99)
