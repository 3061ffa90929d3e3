/* fuzz_ref.c: the qualified ref parser. A token that parses formats back to a token that
 * parses to the same ref; one that fails gives an error that makes a whole envelope. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/dispatch.h"
#include "core/refs.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *token = fz_cstr(data, size);
    ad_ref ref;
    ad_error err = AD_ERROR_INIT;
    if (ad_ref_parse(token, &ref, &err) == 0) {
        char buf[128];
        ad_ref_format(&ref, buf, sizeof buf);
        ad_ref again;
        ad_error err2 = AD_ERROR_INIT;
        if (ad_ref_parse(buf, &again, &err2) < 0 || again.number != ref.number ||
            strcmp(again.snapshot_id, ref.snapshot_id) != 0 ||
            !ad_snapshot_id_valid(ref.snapshot_id) || ref.number < 1)
            abort();
        ad_error_clear(&err2);
    } else {
        json_t *env = ad_envelope_error("get", &err);
        fz_check_envelope(env);
        json_decref(env);
    }
    ad_error_clear(&err);
    free(token);
    return 0;
}
