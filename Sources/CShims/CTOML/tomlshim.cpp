// toml++ parses; this file only copies its tree into CTOML.h's flat node list.
#include "CTOML.h"
#include <toml++/toml.h>
#include <new>
#include <string>
#include <string_view>
#include <vector>

struct mk_toml_document {
    std::vector<mk_toml_node> nodes;
    std::string text;  // keys and string values, back to back
    std::string error;
    uint32_t error_line = 0;
    uint32_t error_column = 0;
    bool failed = false;
};

namespace {

mk_toml_node blank(int32_t kind, int32_t parent, const toml::source_region &where) {
    mk_toml_node n{};
    n.kind = kind;
    n.parent = parent;
    n.line = where.begin.line;
    n.column = where.begin.column;
    return n;
}

void keep(mk_toml_document &d, std::string_view bytes, uint64_t &offset, uint64_t &length) {
    offset = d.text.size();
    length = bytes.size();
    d.text.append(bytes.data(), bytes.size());
}

void add(mk_toml_document &d, const toml::node &value, int32_t parent, std::string_view key, bool keyed);

void addChildren(mk_toml_document &d, const toml::node &value, int32_t self) {
    if (auto table = value.as_table()) {
        for (auto &&[k, child] : *table) add(d, child, self, k.str(), true);
    } else if (auto array = value.as_array()) {
        for (auto &&child : *array) add(d, child, self, {}, false);
    }
}

void add(mk_toml_document &d, const toml::node &value, int32_t parent, std::string_view key, bool keyed) {
    mk_toml_node n{};
    switch (value.type()) {
    case toml::node_type::table:
        n = blank(MK_TOML_TABLE, parent, value.source());
        n.is_inline = value.as_table()->is_inline() ? 1 : 0;
        break;
    case toml::node_type::array:
        n = blank(MK_TOML_ARRAY, parent, value.source());
        break;
    case toml::node_type::string:
        n = blank(MK_TOML_STRING, parent, value.source());
        keep(d, value.as_string()->get(), n.text_offset, n.text_length);
        break;
    case toml::node_type::integer:
        n = blank(MK_TOML_INTEGER, parent, value.source());
        n.integer = value.as_integer()->get();
        break;
    case toml::node_type::floating_point:
        n = blank(MK_TOML_FLOAT, parent, value.source());
        n.number = value.as_floating_point()->get();
        break;
    case toml::node_type::boolean:
        n = blank(MK_TOML_BOOLEAN, parent, value.source());
        n.integer = value.as_boolean()->get() ? 1 : 0;
        break;
    case toml::node_type::date: {
        n = blank(MK_TOML_LOCAL_DATE, parent, value.source());
        const toml::date &date = value.as_date()->get();
        n.year = date.year; n.month = date.month; n.day = date.day;
        break;
    }
    case toml::node_type::time: {
        n = blank(MK_TOML_LOCAL_TIME, parent, value.source());
        const toml::time &time = value.as_time()->get();
        n.hour = time.hour; n.minute = time.minute; n.second = time.second; n.nanosecond = (int32_t)time.nanosecond;
        break;
    }
    case toml::node_type::date_time: {
        const toml::date_time &stamp = value.as_date_time()->get();
        n = blank(stamp.offset ? MK_TOML_OFFSET_DATE_TIME : MK_TOML_LOCAL_DATE_TIME, parent, value.source());
        n.year = stamp.date.year; n.month = stamp.date.month; n.day = stamp.date.day;
        n.hour = stamp.time.hour; n.minute = stamp.time.minute; n.second = stamp.time.second;
        n.nanosecond = (int32_t)stamp.time.nanosecond;
        if (stamp.offset) n.offset_minutes = stamp.offset->minutes;
        break;
    }
    default:
        return;
    }
    if (keyed) keep(d, key, n.key_offset, n.key_length);
    d.nodes.push_back(n);
    addChildren(d, value, (int32_t)(d.nodes.size() - 1));
}

void fail(mk_toml_document &d, std::string message, uint32_t line, uint32_t column) {
    d.nodes.clear();
    d.text.clear();
    d.failed = true;
    d.error = std::move(message);
    d.error_line = line;
    d.error_column = column;
}

}  // namespace

extern "C" mk_toml_document *mk_toml_parse(const char *text, size_t length) {
    auto *d = new (std::nothrow) mk_toml_document();
    if (!d) return nullptr;
    try {
        toml::table root = toml::parse(std::string_view(text, length));
        mk_toml_node top = blank(MK_TOML_TABLE, -1, root.source());
        top.line = 1; top.column = 1;
        d->nodes.push_back(top);
        addChildren(*d, root, 0);
    } catch (const toml::parse_error &error) {
        fail(*d, std::string(error.description()), error.source().begin.line, error.source().begin.column);
    } catch (const std::bad_alloc &) {
        fail(*d, "not enough memory for the document", 0, 0);
    } catch (...) {
        fail(*d, "the TOML reader failed", 0, 0);
    }
    return d;
}

extern "C" int mk_toml_failed(const mk_toml_document *d) { return d->failed ? 1 : 0; }
extern "C" const char *mk_toml_error_message(const mk_toml_document *d) { return d->error.c_str(); }
extern "C" uint32_t mk_toml_error_line(const mk_toml_document *d) { return d->error_line; }
extern "C" uint32_t mk_toml_error_column(const mk_toml_document *d) { return d->error_column; }
extern "C" size_t mk_toml_node_count(const mk_toml_document *d) { return d->nodes.size(); }
extern "C" const mk_toml_node *mk_toml_nodes(const mk_toml_document *d) { return d->nodes.data(); }
extern "C" const char *mk_toml_text(const mk_toml_document *d) { return d->text.data(); }
extern "C" void mk_toml_free(mk_toml_document *d) { delete d; }
