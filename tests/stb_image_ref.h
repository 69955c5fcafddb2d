/* stb_image_ref.h: Debian's stb_image as an independent reference decoder for the tests (the texture
 * loader no longer holds it: src/media decodes with libpng and libjpeg-turbo). Include it in one file
 * of a program: it carries the implementation. */
#ifndef IKS_STB_IMAGE_REF_H
#define IKS_STB_IMAGE_REF_H

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#include <stb/stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#endif
