#include <stdio.h>
#include "agent_desktop.h"

int main(int argc, char **argv) {
    const char *app = argc > 1 ? argv[1] : NULL;   /* NULL reads the focused window */

    if (ad_init(AD_ABI_VERSION_MAJOR) != AD_RESULT_OK) {
        fprintf(stderr, "ABI mismatch: %s\n", ad_last_error_message());
        return 1;
    }

    AdAdapter *adapter = ad_adapter_create();
    if (!adapter) {
        fprintf(stderr, "adapter_create failed: %s\n", ad_last_error_message());
        return 1;
    }

    char *json = NULL;
    AdResult rc = ad_snapshot(adapter, app, AD_SNAPSHOT_SURFACE_WINDOW,
                              3, true, true, &json);   /* max_depth, interactive_only, compact */
    if (json) {                      /* an ok:true or ok:false envelope: free either */
        printf("%s\n", json);
        ad_free_string(json);
    } else {
        fprintf(stderr, "snapshot failed (%d): %s\n", (int)rc, ad_last_error_message());
    }

    ad_adapter_destroy(adapter);
    return rc == AD_RESULT_OK ? 0 : 1;
}
