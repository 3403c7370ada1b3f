/* meeplemind: a reader of the protobuf wire format, for the fast paths that read a
 * position message straight into a state vector (mm_*_wire.c).
 *
 * Only what those messages use: varints (int32, bool) and length-delimited fields
 * (strings, messages).  Every read is bounds-checked; any malformed input, or a
 * field the caller does not expect, makes the caller give up (the general path in
 * Python then reads the message and names what is wrong). */
#ifndef MM_WIRE_H
#define MM_WIRE_H
#include <stdint.h>
#include <string.h>

#define MM_WIRE_VARINT 0
#define MM_WIRE_LEN 2

typedef struct mm_wire {
    const uint8_t *p, *end;
} mm_wire;

typedef struct mm_wire_field {
    uint32_t number;
    uint32_t type;
    uint64_t varint;     /* MM_WIRE_VARINT */
    mm_wire bytes;       /* MM_WIRE_LEN: the payload */
} mm_wire_field;

static inline mm_wire mm_wire_of(const uint8_t *buf, int32_t len)
{
    mm_wire w = {buf, buf + (len > 0 ? len : 0)};
    return w;
}

static inline int mm_wire_varint(mm_wire *w, uint64_t *out)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64 && w->p < w->end; shift += 7) {
        uint8_t b = *w->p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *out = v;
            return 1;
        }
    }
    return 0;
}

/* The next field into *f: 1, 0 at the end of the message, -1 on malformed input or a
 * wire type other than varint, 64-bit, length-delimited or 32-bit (64- and 32-bit
 * fields are skipped: they are reported with their type and no value). */
static inline int mm_wire_next(mm_wire *w, mm_wire_field *f)
{
    uint64_t key, len;
    if (w->p >= w->end)
        return 0;
    if (!mm_wire_varint(w, &key) || key >> 32 || (key >> 3) == 0)
        return -1;
    f->number = (uint32_t)(key >> 3);
    f->type = (uint32_t)(key & 7);
    switch (f->type) {
    case MM_WIRE_VARINT:
        return mm_wire_varint(w, &f->varint) ? 1 : -1;
    case 1:
        if (w->end - w->p < 8)
            return -1;
        w->p += 8;
        return 1;
    case MM_WIRE_LEN:
        if (!mm_wire_varint(w, &len) || len > (uint64_t)(w->end - w->p))
            return -1;
        f->bytes.p = w->p;
        f->bytes.end = w->p + len;
        w->p += len;
        return 1;
    case 5:
        if (w->end - w->p < 4)
            return -1;
        w->p += 4;
        return 1;
    default:
        return -1;
    }
}

/* An int32 field's value (the low 32 bits of its varint, as protobuf reads it). */
static inline int32_t mm_wire_int32(const mm_wire_field *f) { return (int32_t)(uint32_t)f->varint; }

/* The index of a string field's value in names[count] (-1 for "" when empty_ok), or -2
 * (not a name, or not a string field). */
static inline int mm_wire_name(const mm_wire_field *f, const char *const *names, int count, int empty_ok)
{
    size_t len = (size_t)(f->bytes.end - f->bytes.p);
    if (f->type != MM_WIRE_LEN)
        return -2;
    if (empty_ok && len == 0)
        return -1;
    for (int i = 0; i < count; i++)
        if (strlen(names[i]) == len && memcmp(names[i], f->bytes.p, len) == 0)
            return i;
    return -2;
}

/* Mark field `number` (below 32) read in *seen; 0 if it was already: a field repeated on
 * the wire, which a reader leaves to the general path. */
static inline int mm_wire_first(uint32_t *seen, uint32_t number)
{
    if (number >= 32 || (*seen & (1U << number)))
        return 0;
    *seen |= 1U << number;
    return 1;
}

/* Field f is the first of its number (mm_wire_first) and of the given wire type. */
static inline int mm_wire_expect(uint32_t *seen, const mm_wire_field *f, uint32_t type)
{
    return f->type == type && mm_wire_first(seen, f->number);
}
#endif
