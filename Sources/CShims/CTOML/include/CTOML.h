// A C face for toml++ (Debian's libtomlplusplus), the TOML 1.0 reader behind the kiosk's
// configuration: Swift, regular or Embedded, cannot call C++ templates, so the document is
// handed over as a flat list of nodes in depth-first order, each naming its parent. No C++
// exception crosses this boundary: every failure is a result with a message and a position.
#ifndef CTOML_H
#define CTOML_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    MK_TOML_TABLE = 1,
    MK_TOML_ARRAY,
    MK_TOML_STRING,
    MK_TOML_INTEGER,
    MK_TOML_FLOAT,
    MK_TOML_BOOLEAN,
    MK_TOML_LOCAL_DATE,
    MK_TOML_LOCAL_TIME,
    MK_TOML_LOCAL_DATE_TIME,
    MK_TOML_OFFSET_DATE_TIME,
} mk_toml_kind;

/// One value of the document. Texts (the key, a string's value) are byte ranges of
/// `mk_toml_text`: they may hold NUL (TOML's "\u0000"), so they carry their length.
typedef struct {
    int32_t kind;            // mk_toml_kind
    int32_t parent;          // index of the enclosing table or array; -1 for the root table
    uint32_t line;           // 1-based position where the node begins in the source
    uint32_t column;
    uint64_t key_offset;     // the key within the parent table; length 0 inside arrays
    uint64_t key_length;
    uint64_t text_offset;    // a string's bytes
    uint64_t text_length;
    int64_t integer;         // an integer; a boolean as 0 or 1
    double number;           // a float
    int32_t is_inline;       // a table written { ... } or an array of tables' element
    int16_t year, month, day;
    int16_t hour, minute, second;
    int32_t nanosecond;
    int32_t offset_minutes;  // of an offset date-time
} mk_toml_node;

typedef struct mk_toml_document mk_toml_document;

/// Parses `length` bytes of TOML. Never returns NULL unless memory is exhausted; check
/// `mk_toml_failed` and read the error, then free with `mk_toml_free`.
mk_toml_document *mk_toml_parse(const char *text, size_t length);
int mk_toml_failed(const mk_toml_document *document);
/// The parser's message (NUL-terminated) and where it stopped, 1-based.
const char *mk_toml_error_message(const mk_toml_document *document);
uint32_t mk_toml_error_line(const mk_toml_document *document);
uint32_t mk_toml_error_column(const mk_toml_document *document);
size_t mk_toml_node_count(const mk_toml_document *document);
const mk_toml_node *mk_toml_nodes(const mk_toml_document *document);
const char *mk_toml_text(const mk_toml_document *document);
void mk_toml_free(mk_toml_document *document);

#ifdef __cplusplus
}
#endif
#endif
