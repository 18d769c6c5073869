#pragma once
// Published JOSE test vectors shared by the jwt, jwk and rsa_verify suites (and, as copies, by the native
// and node tests). Each constant names its source.

#include <string_view>

namespace vectors {

// RFC 7515 Appendix A.1: HS256. Header and payload carry CRLFs and spaces, so only the exact compact form
// is meaningful; `k` is the JWK's base64url key.
inline constexpr std::string_view kA1Compact =
    "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9"
    ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
    ".dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
inline constexpr std::string_view kA1Key =
    "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow";
inline constexpr std::string_view kA1Header = "{\"typ\":\"JWT\",\r\n \"alg\":\"HS256\"}";
inline constexpr std::string_view kA1Payload =
    "{\"iss\":\"joe\",\r\n \"exp\":1300819380,\r\n \"http://example.com/is_root\":true}";

// RFC 7515 Appendix A.2: RS256 with the key of A.2.1 (public part; e = AQAB).
inline constexpr std::string_view kA2SigningInput =
    "eyJhbGciOiJSUzI1NiJ9"
    ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ";
inline constexpr std::string_view kA2Signature =
    "cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdb"
    "F9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383"
    "LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWy"
    "wlVmtVrBp0igcN_IoypGlUPQGe77Rw";
inline constexpr std::string_view kA2N =
    "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SF"
    "d2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo"
    "7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkM"
    "Ls91kzk2PAcDTW9gb54h4FRWyuXpoQ";

// The A.2 key signing another token, made once with `openssl dgst -sha256 -sign` (PKCS#1 v1.5 is
// deterministic): header {"alg":"RS256","kid":"2010-12-29"}, payload
// {"iss":"https://auth.example","aud":"client-1","sub":"usr_1","exp":2000000000}.
inline constexpr std::string_view kA2KidToken =
    "eyJhbGciOiJSUzI1NiIsImtpZCI6IjIwMTAtMTItMjkifQ"
    ".eyJpc3MiOiJodHRwczovL2F1dGguZXhhbXBsZSIsImF1ZCI6ImNsaWVudC0xIiwic3ViIjoidXNyXzEiLCJleHAiOjIwMDAwMDAwMDB"
    "9"
    ".Uy5PLHwU6MWlFaldIXS6dzkE5oz0SgIpdLwxntfUWK34dF4ZowSetHpS86Sj-KoHemWARKkcGsW104ZLjTnrDtwWWY_"
    "CAi0RJWT5sccvm"
    "tw_2ZiX_"
    "GFuAJAew1ALOWwiAsBVUZNHFogmXZFwa0TNBleEulaxnwxiC2Rdn4pERJMzgc8bzKgHXYZv1SxEWvJJgugseJH0GXJcxsi817"
    "MOWr4VS3VBqYQ1ahmw0mvImvCKdAlg2hsHgaPX2aVbEeOrlnjFOMuLVszhq57zjFC-"
    "3dIj1ForyHWLP2AZRSxdlMLO2Z1S74gvGjcrgob"
    "392KSz23ldX_Q1AliFLgKrG3o6A";

// A genuine signature by a 1024-bit key (openssl genrsa 1024, e = 65537), header {"alg":"RS256"}, the same
// payload as kA2KidToken: valid RSA, but below the 2048-bit floor.
inline constexpr std::string_view kSmallKeyToken =
    "eyJhbGciOiJSUzI1NiJ9"
    ".eyJpc3MiOiJodHRwczovL2F1dGguZXhhbXBsZSIsImF1ZCI6ImNsaWVudC0xIiwic3ViIjoidXNyXzEiLCJleHAiOjIwMDAwMDAwMDB"
    "9"
    ".Ej7QQj8fX9dmnbg9WotHpQWCk3bkg_zTcyI3x-XVVEGMl5hKITSYco9z4I2Grd_sZWwJjYu9LUsdrixLKxYTggQoVfD6vd-dyYgO0pw"
    "APv2x-6AYQWf_OG6BaTpblXx8MLqgut4h6slZWNbHrn95Y151ATU-PeBKK50l7KDPSuI";
inline constexpr std::string_view kSmallKeyN =
    "5hsFFVEFQ6jCZpd8vplRX2ObcSB7gBDlRWE-Aej-UCakNIS4-KBltOObMJgBQacZKZZ9BR04SRduwrLKMrfT2mhbAc-qyPhbuYBKmelh"
    "hRO3JJoTUtGtfdWgBkWkjeLPmZipsdeFOISGo-IPHk7Ie7zbUJsrRVj8WXTVu6L2qu8";

// RFC 7638 §3.1: the example RSA key and its JWK SHA-256 thumbprint.
inline constexpr std::string_view kRfc7638N =
    "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiF"
    "V4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9"
    "c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1"
    "jF44-csFCur-kEgU8awapJzKnqDKgw";
inline constexpr std::string_view kRfc7638Thumbprint = "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs";

}  // namespace vectors
