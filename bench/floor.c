/* The C-parse floor of bench/run.py: read every file named on stdin (one path a line) and
 * run libyaml's parser over it to the end of the stream, as fast as C can. si-lint's cold
 * check cannot be faster than this; bench/run.py reports the ratio of their CPU times.
 *
 *   gcc -O2 -o floor bench/floor.c -lyaml && find corpus -type f | ./floor
 *
 * Prints "<files> files, <events> events, <errors> unparsable". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

int main(void) {
    char path[8192];
    size_t cap = 1 << 20;
    unsigned char *buf = malloc(cap);
    long files = 0, events = 0, errors = 0;
    if (!buf) return 2;
    while (fgets(path, sizeof path, stdin)) {
        size_t n = strlen(path);
        while (n && (path[n - 1] == '\n' || path[n - 1] == '\r')) path[--n] = 0;
        if (!n) continue;
        FILE *fh = fopen(path, "rb");
        if (!fh) { errors++; continue; }
        size_t len = 0, got;
        while ((got = fread(buf + len, 1, cap - len, fh)) > 0) {
            len += got;
            if (len == cap) {
                unsigned char *more = realloc(buf, cap * 2);
                if (!more) { fclose(fh); return 2; }
                buf = more;
                cap *= 2;
            }
        }
        fclose(fh);
        files++;
        yaml_parser_t parser;
        yaml_event_t event;
        yaml_parser_initialize(&parser);
        yaml_parser_set_input_string(&parser, buf, len);
        for (;;) {
            if (!yaml_parser_parse(&parser, &event)) { errors++; break; }
            events++;
            int end = event.type == YAML_STREAM_END_EVENT;
            yaml_event_delete(&event);
            if (end) break;
        }
        yaml_parser_delete(&parser);
    }
    printf("%ld files, %ld events, %ld unparsable\n", files, events, errors);
    free(buf);
    return 0;
}
