/* png_image.c: libpng to a memory buffer. */
#include "core/png_image.h"

#include "core/text_buf.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>

static void on_write(png_structp png, png_bytep bytes, png_size_t n)
{
    ad_buf_put_n(png_get_io_ptr(png), (const char *)bytes, n);
}

static void on_flush(png_structp png)
{
    (void)png;
}

int ad_png_encode(const ad_image *img, unsigned char **ret, size_t *ret_len, ad_error *err)
{
    ad_buf b = {0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    png_bytep *rows = img->height > 0 ? calloc((size_t)img->height, sizeof(*rows)) : NULL;
    if (!png || !info || !rows || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(rows);
        free(b.buf);
        return ad_error_set(err, AD_INTERNAL, "The PNG encoder failed");
    }
    png_set_write_fn(png, &b, on_write, on_flush);
    png_set_IHDR(png, info, (png_uint_32)img->width, (png_uint_32)img->height, 8,
                 PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    /* level 1: screenshots are large and flat; speed matters more than the last bytes */
    png_set_compression_level(png, 1);
    for (int i = 0; i < img->height; i++)
        rows[i] = img->rgb + (size_t)i * (size_t)img->width * 3;
    png_set_rows(png, info, rows);
    png_write_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
    png_destroy_write_struct(&png, &info);
    free(rows);
    if (b.failed) {
        free(b.buf);
        return ad_error_set(err, AD_INTERNAL, "Out of memory encoding the PNG");
    }
    *ret = (unsigned char *)b.buf;
    *ret_len = b.len;
    return 0;
}
