/* Fan-out load client in C: the same job and the same stdin/stdout protocol as bench/load.js, at a
 * fraction of its CPU (one thread, epoll, non-blocking sockets; Linux, libc only).
 *
 *   {"cmd":"connect","urls":[...],"n":N,"channel":C}  -> {"ok":"ready","n":N} once every socket has its snapshot
 *       optional "sources":["127.0.0.2",...]: local addresses the sockets are bound to, in turn (each
 *       address has its own ~28,000 ephemeral ports per server address and port: past 28,000 sockets)
 *       optional "batch":B: sockets opened per 20 ms (default 50)
 *   {"cmd":"stall","url":U,"channel":C}                 -> {"ok":"stalled"}: one more socket that subscribes, then never reads
 *   {"cmd":"reset"}                                     -> {"ok":"reset"}: forget the counts
 *   {"cmd":"report"}                                    -> counts, latency percentiles (ms), first/last receive
 *   {"cmd":"close"}                                     -> {"ok":"closed"}, exit (also on stdin EOF)
 * Problems are reported as {"error":"..."} lines (the driver skips them).
 *
 * Latency of a message = receive wall time (CLOCK_REALTIME, ms, sub-ms) - its server_time (ms, set when
 * the server built it). The first message on a socket is its snapshot: it makes the socket ready and is
 * not counted; later messages without "server_time" in their first 200 bytes are not counted either.
 *
 * Build: cc -O2 -Wall -o bench/build/load bench/load.c   (fanout_bench.py does it on first use)
 * URLs: ws://IPv4[:port][/path] only (no TLS, no DNS; "localhost" is taken as 127.0.0.1).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH 50            /* sockets opened per batch */
#define BATCH_GAP_MS 20.0   /* between batches (as load.js) */
#define HEAD_SCAN 200       /* bytes of a message searched for "server_time": */
#define MAX_HEADERS 16384   /* a handshake answer longer than this is an error */
#define RECV_CHUNK 262144   /* bytes asked of one recv() */

enum { S_CONNECTING, S_HANDSHAKE, S_OPEN, S_CLOSED };

struct target {
    struct sockaddr_in addr;
    char hostport[272];
    char path[512];
};

struct conn {
    int fd;
    int idx;            /* per-socket counter index, -1 for a stalled socket */
    int state;
    int ready;          /* snapshot received */
    int stall;          /* stop reading once subscribed */
    int in_msg;         /* a data message has started (fragmented messages) */
    long long msg_st;   /* its server_time, -1 if none */
    int want_out;       /* EPOLLOUT registered */
    const struct target *tg;
    char *left;         /* bytes of an incomplete handshake answer or frame */
    size_t nleft, capleft;
    char *out;          /* bytes not yet written */
    size_t nout, capout;
};

static int ep;
static struct conn **conns;
static size_t nconns, capconns;

static struct target *targets;      /* of the current connect command */
static size_t ntargets;
static char channel[512];

static struct in_addr *sources;     /* of the current connect command (none: the kernel picks) */
static size_t nsources;
static const struct in_addr *next_src;  /* the source of the socket conn_open makes next */
static int batch = BATCH;

static long long *per_sock;         /* per counting socket */
static size_t nper, capper;

static double *lat;
static size_t nlat, caplat;
static long long count;
static double first_t, last_t;

static size_t to_open, opened_in_cmd;   /* connect command progress */
static size_t pending;                  /* sockets of the command not yet ready (nor failed) */
static int connect_active;
static double next_batch;
static size_t n_ready;                  /* counting sockets that got their snapshot */

static char *scratch;
static size_t capscratch;

static char inbuf[1 << 20];
static size_t ninbuf;

static int stdin_tag;               /* its address marks stdin in epoll */

/* --- small helpers ------------------------------------------------------------------------ */

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q) {
        fprintf(stderr, "load: out of memory\n");
        exit(2);
    }
    return q;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void json_escape(char *dst, size_t cap, const char *src)
{
    size_t j = 0;
    for (const unsigned char *s = (const unsigned char *)src; *s && j + 7 < cap; s++) {
        if (*s == '"' || *s == '\\') {
            dst[j++] = '\\';
            dst[j++] = *s;
        } else if (*s < 0x20) {
            j += snprintf(dst + j, cap - j, "\\u%04x", *s);
        } else {
            dst[j++] = *s;
        }
    }
    dst[j] = 0;
}

static void answer(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    fflush(stdout);
}

static void error_line(const char *fmt, ...)
{
    char msg[512], esc[1100];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_escape(esc, sizeof esc, msg);
    answer("{\"error\":\"%s\"}", esc);
}

/* --- the command line's JSON: fixed shapes, found by key ------------------------------------ */

/* The value after "key": (whitespace allowed around the colon), or NULL. */
static const char *json_value(const char *line, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    const char *p = strstr(line, pat);
    if (!p)
        return NULL;
    p += strlen(pat);
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != ':')
        return NULL;
    p++;
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* A JSON string at p (which points at its opening quote) into dst; returns the byte after it. */
static const char *json_string(const char *p, char *dst, size_t cap)
{
    size_t j = 0;
    if (!p || *p != '"') {
        if (cap)
            dst[0] = 0;
        return NULL;
    }
    for (p++; *p && *p != '"'; p++) {
        if (*p == '\\' && p[1])
            p++;  /* \" \\ \/ only: the commands hold URLs and channel names */
        if (j + 1 < cap)
            dst[j++] = *p;
    }
    dst[j] = 0;
    return *p == '"' ? p + 1 : NULL;
}

/* ws://host[:port][/path] */
static int parse_url(const char *url, struct target *t)
{
    char host[256];
    int port = 80;
    if (strncmp(url, "ws://", 5) != 0)
        return -1;
    const char *h = url + 5;
    size_t hl = strcspn(h, ":/");
    if (hl == 0 || hl >= sizeof host)
        return -1;
    memcpy(host, h, hl);
    host[hl] = 0;
    const char *p = h + hl;
    if (*p == ':') {
        char *end;
        long v = strtol(p + 1, &end, 10);
        if (end == p + 1 || v <= 0 || v > 65535)
            return -1;
        port = (int)v;
        p = end;
    }
    memset(t, 0, sizeof *t);
    t->addr.sin_family = AF_INET;
    t->addr.sin_port = htons((uint16_t)port);
    if (strcmp(host, "localhost") == 0)
        strcpy(host, "127.0.0.1");
    if (inet_pton(AF_INET, host, &t->addr.sin_addr) != 1)
        return -1;
    snprintf(t->hostport, sizeof t->hostport, "%s:%d", host, port);
    snprintf(t->path, sizeof t->path, "%s", *p == '/' ? p : "/");
    return 0;
}

/* --- sockets ------------------------------------------------------------------------------- */

static void set_events(struct conn *c, int out)
{
    struct epoll_event ev = {.events = EPOLLIN | (out ? EPOLLOUT : 0), .data.ptr = c};
    if (c->want_out == out)
        return;
    c->want_out = out;
    epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
}

static void conn_close(struct conn *c)
{
    if (c->state == S_CLOSED)
        return;
    if (c->fd >= 0)
        close(c->fd);  /* also leaves the epoll set */
    c->state = S_CLOSED;
    c->fd = -1;
    free(c->left);
    free(c->out);
    c->left = c->out = NULL;
    c->nleft = c->capleft = c->nout = c->capout = 0;
}

static void check_ready(void)
{
    if (connect_active && pending == 0 && to_open == 0) {
        connect_active = 0;
        answer("{\"ok\":\"ready\",\"n\":%zu}", n_ready);
    }
}

/* A socket that failed: say why, and do not wait for its snapshot. */
static void conn_fail(struct conn *c, const char *why)
{
    if (c->state == S_CLOSED)
        return;
    error_line("ws://%s%s: %s", c->tg->hostport, c->tg->path, why);
    int counting_pending = !c->ready && !c->stall;
    int stall_unanswered = c->stall == 1;
    conn_close(c);
    if (counting_pending && pending > 0) {
        pending--;
        check_ready();
    }
    if (stall_unanswered) {  /* answer anyway (the error line says why), or the driver would wait forever */
        c->stall = 0;
        answer("{\"ok\":\"stalled\",\"failed\":true}");
    }
}

/* Write now what the socket takes; queue the rest for EPOLLOUT. */
static void conn_send(struct conn *c, const void *data, size_t n)
{
    const char *p = data;
    if (c->state == S_CLOSED)
        return;
    if (c->nout == 0) {
        while (n > 0) {
            ssize_t w = send(c->fd, p, n, MSG_NOSIGNAL);
            if (w < 0) {
                if (errno == EINTR)
                    continue;
                if (errno == EAGAIN || errno == EWOULDBLOCK)
                    break;
                conn_fail(c, strerror(errno));
                return;
            }
            p += w;
            n -= (size_t)w;
        }
    }
    if (n == 0)
        return;
    if (c->nout + n > c->capout) {
        c->capout = (c->nout + n) * 2;
        c->out = xrealloc(c->out, c->capout);
    }
    memcpy(c->out + c->nout, p, n);
    c->nout += n;
    set_events(c, 1);
}

/* A masked client frame (client frames must be masked); payloads here are small. */
static void send_frame(struct conn *c, int opcode, const void *payload, size_t n)
{
    unsigned char f[14 + 1024];
    static const unsigned char mask[4] = {0x37, 0xfa, 0x21, 0x3d};
    size_t h = 0;
    if (n > 1024)
        n = 1024;
    f[h++] = (unsigned char)(0x80 | opcode);
    if (n < 126) {
        f[h++] = (unsigned char)(0x80 | n);
    } else {
        f[h++] = 0x80 | 126;
        f[h++] = (unsigned char)(n >> 8);
        f[h++] = (unsigned char)n;
    }
    memcpy(f + h, mask, 4);
    h += 4;
    for (size_t i = 0; i < n; i++)
        f[h + i] = ((const unsigned char *)payload)[i] ^ mask[i & 3];
    conn_send(c, f, h + n);
}

static struct conn *conn_open(const struct target *tg, int idx, int stall)
{
    struct conn *c = calloc(1, sizeof *c);
    if (!c) {
        fprintf(stderr, "load: out of memory\n");
        exit(2);
    }
    c->idx = idx;
    c->stall = stall;
    c->tg = tg;
    c->msg_st = -1;
    if (nconns == capconns) {
        capconns = capconns ? capconns * 2 : 1024;
        conns = xrealloc(conns, capconns * sizeof *conns);
    }
    conns[nconns++] = c;

    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c->fd < 0) {
        char why[128];
        snprintf(why, sizeof why, "socket: %s", strerror(errno));
        c->state = S_HANDSHAKE;  /* not S_CLOSED, so that conn_fail reports it */
        conn_fail(c, why);
        return c;
    }
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (next_src) {
        /* The port is chosen at connect() time, per destination: a source address's ports are
         * shared by every server port instead of being reserved by bind(). */
        setsockopt(c->fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
        struct sockaddr_in la = {.sin_family = AF_INET, .sin_addr = *next_src};
        if (bind(c->fd, (const struct sockaddr *)&la, sizeof la) < 0) {
            char why[128];
            snprintf(why, sizeof why, "bind: %s", strerror(errno));
            c->state = S_HANDSHAKE;
            conn_fail(c, why);
            return c;
        }
    }
    c->state = S_CONNECTING;
    c->want_out = 1;
    struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT, .data.ptr = c};
    if (epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev) < 0) {
        conn_fail(c, strerror(errno));
        return c;
    }
    if (connect(c->fd, (const struct sockaddr *)&tg->addr, sizeof tg->addr) < 0 && errno != EINPROGRESS)
        conn_fail(c, strerror(errno));
    /* Either way EPOLLOUT says when it is connected (or failed). */
    return c;
}

static void send_request(struct conn *c)
{
    char req[1024];
    int n = snprintf(req, sizeof req,
                     "GET %s HTTP/1.1\r\n"
                     "Host: %s\r\n"
                     "Upgrade: websocket\r\n"
                     "Connection: Upgrade\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     "Sec-WebSocket-Version: 13\r\n"
                     "\r\n",
                     c->tg->path, c->tg->hostport);
    c->state = S_HANDSHAKE;
    conn_send(c, req, (size_t)n);
    if (c->state != S_CLOSED && c->nout == 0)
        set_events(c, 0);
}

static void subscribe(struct conn *c)
{
    char esc[1100], body[1200];
    json_escape(esc, sizeof esc, channel);
    int n = snprintf(body, sizeof body, "{\"type\":\"subscribe\",\"channel\":\"%s\"}", esc);
    send_frame(c, 1, body, (size_t)n);
}

/* The stalled socket, subscribed: leave the epoll set (never read again), keep it open. */
static void stall_now(struct conn *c)
{
    epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
    c->state = S_OPEN;
    c->stall = 2;
    answer("{\"ok\":\"stalled\"}");
}

/* --- messages ------------------------------------------------------------------------------ */

static long long find_server_time(const unsigned char *p, size_t n)
{
    static const char key[] = "\"server_time\":";
    if (n > HEAD_SCAN)
        n = HEAD_SCAN;
    const unsigned char *k = memmem(p, n, key, sizeof key - 1);
    if (!k)
        return -1;
    const unsigned char *end = p + n;
    k += sizeof key - 1;
    while (k < end && *k == ' ')
        k++;
    if (k >= end || *k < '0' || *k > '9')
        return -1;
    long long v = 0;
    while (k < end && *k >= '0' && *k <= '9')
        v = v * 10 + (*k++ - '0');
    return v;
}

static void message_done(struct conn *c, double t)
{
    long long st = c->msg_st;
    c->in_msg = 0;
    c->msg_st = -1;
    if (!c->ready) {
        c->ready = 1;
        if (c->idx >= 0) {
            n_ready++;
            if (pending > 0) {
                pending--;
                check_ready();
            }
        }
        return;
    }
    if (st < 0 || c->idx < 0)
        return;
    count++;
    per_sock[c->idx]++;
    if (!first_t)
        first_t = t;
    last_t = t;
    if (nlat == caplat) {
        caplat = caplat ? caplat * 2 : 1 << 16;
        lat = xrealloc(lat, caplat * sizeof *lat);
    }
    lat[nlat++] = t - (double)st;
}

/* Parse the frames in p[0..n); returns the bytes consumed (a partial frame is left over). */
static size_t parse_frames(struct conn *c, unsigned char *p, size_t n, double t)
{
    size_t off = 0;
    while (c->state == S_OPEN && n - off >= 2) {
        unsigned char *f = p + off;
        size_t avail = n - off;
        int fin = f[0] & 0x80, op = f[0] & 0x0f, masked = f[1] & 0x80;
        uint64_t len = f[1] & 0x7f;
        size_t h = 2;
        if (len == 126) {
            if (avail < 4)
                break;
            len = ((uint64_t)f[2] << 8) | f[3];
            h = 4;
        } else if (len == 127) {
            if (avail < 10)
                break;
            len = 0;
            for (int i = 0; i < 8; i++)
                len = (len << 8) | f[2 + i];
            h = 10;
        }
        if (len > ((uint64_t)1 << 31)) {
            conn_fail(c, "frame too large");
            return n;
        }
        if (masked)
            h += 4;
        if (avail < h + len)
            break;
        unsigned char *pl = f + h;
        if (masked)
            for (size_t i = 0; i < len; i++)
                pl[i] ^= f[h - 4 + (i & 3)];
        off += h + (size_t)len;

        switch (op) {
        case 1: case 2:  /* a data message (or its first fragment) */
            c->in_msg = 1;
            c->msg_st = c->ready ? find_server_time(pl, (size_t)len) : -1;
            if (fin)
                message_done(c, t);
            break;
        case 0:  /* continuation */
            if (fin && c->in_msg)
                message_done(c, t);
            break;
        case 9:  /* ping: pong with the same payload */
            send_frame(c, 10, pl, len > 125 ? 125 : (size_t)len);
            break;
        case 10:
            break;
        case 8: {  /* close: answer it, then close */
            char code[32] = "";
            if (len >= 2)
                snprintf(code, sizeof code, " (code %d)", (pl[0] << 8) | pl[1]);
            send_frame(c, 8, pl, len >= 2 ? 2 : 0);
            char why[64];
            snprintf(why, sizeof why, "closed by the server%s", code);
            conn_fail(c, why);
            return n;
        }
        default:
            conn_fail(c, "unknown opcode");
            return n;
        }
    }
    return off;
}

static void on_readable(struct conn *c)
{
    /* The left-over bytes, then what the socket has, in one contiguous scratch buffer. */
    if (capscratch < c->nleft + RECV_CHUNK) {
        capscratch = c->nleft + RECV_CHUNK;
        scratch = xrealloc(scratch, capscratch);
    }
    if (c->nleft)
        memcpy(scratch, c->left, c->nleft);
    ssize_t r = recv(c->fd, scratch + c->nleft, capscratch - c->nleft, 0);
    if (r < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
            return;
        conn_fail(c, strerror(errno));
        return;
    }
    if (r == 0) {
        conn_fail(c, "connection closed by the server");
        return;
    }
    double t = now_ms();
    size_t n = c->nleft + (size_t)r, off = 0;
    unsigned char *p = (unsigned char *)scratch;

    if (c->state == S_HANDSHAKE) {
        unsigned char *e = memmem(p, n, "\r\n\r\n", 4);
        if (!e) {
            if (n > MAX_HEADERS) {
                conn_fail(c, "handshake answer too long");
                return;
            }
            goto keep;
        }
        if (n < 12 || memcmp(p, "HTTP/1.1 101", 12) != 0) {
            char why[64];
            size_t sl = strcspn((const char *)p, "\r\n");
            snprintf(why, sizeof why, "handshake refused: %.*s", (int)(sl < 40 ? sl : 40), (const char *)p);
            conn_fail(c, why);
            return;
        }
        off = (size_t)(e + 4 - p);
        c->state = S_OPEN;
        subscribe(c);
        if (c->stall) {
            if (c->state == S_CLOSED)
                return;
            if (c->nout == 0)
                stall_now(c);
            return;  /* whatever came after the headers stays unread */
        }
    }
    off += parse_frames(c, p + off, n - off, t);
    if (c->state == S_CLOSED)
        return;
keep:
    n -= off;
    if (n > c->capleft) {
        c->capleft = n * 2 > 4096 ? n * 2 : 4096;
        c->left = xrealloc(c->left, c->capleft);
    }
    if (n)
        memmove(c->left, p + off, n);
    c->nleft = n;
}

static void on_writable(struct conn *c)
{
    if (c->state == S_CONNECTING) {
        int err = 0;
        socklen_t el = sizeof err;
        getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &el);
        if (err) {
            char why[128];
            snprintf(why, sizeof why, "connect: %s", strerror(err));
            conn_fail(c, why);
            return;
        }
        send_request(c);
        return;
    }
    while (c->nout > 0) {
        ssize_t w = send(c->fd, c->out, c->nout, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return;
            conn_fail(c, strerror(errno));
            return;
        }
        memmove(c->out, c->out + w, c->nout - (size_t)w);
        c->nout -= (size_t)w;
    }
    if (c->stall == 1 && c->state == S_OPEN)
        stall_now(c);
    else
        set_events(c, 0);
}

/* --- commands ------------------------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void num(char *dst, size_t cap, int have, double v)
{
    if (have)
        snprintf(dst, cap, "%.3f", v);
    else
        snprintf(dst, cap, "null");
}

static void shutdown_all(void)
{
    for (size_t i = 0; i < nconns; i++)
        if (conns[i]->state != S_CLOSED) {
            close(conns[i]->fd);
            conns[i]->state = S_CLOSED;
        }
}

static void command(char *line)
{
    char cmd[32];
    if (!json_string(json_value(line, "cmd"), cmd, sizeof cmd)) {
        error_line("bad command line: %.200s", line);
        return;
    }
    if (strcmp(cmd, "connect") == 0) {
        const char *v = json_value(line, "n");
        long n = v ? strtol(v, NULL, 10) : 0;
        json_string(json_value(line, "channel"), channel, sizeof channel);
        /* The targets of an earlier command stay (its sockets point at them): leak them. */
        targets = NULL;
        ntargets = 0;
        const char *p = json_value(line, "urls");
        if (p && *p == '[') {
            p++;
            for (;;) {
                while (*p == ' ' || *p == ',')
                    p++;
                if (*p != '"')
                    break;
                char url[600];
                p = json_string(p, url, sizeof url);
                targets = xrealloc(targets, (ntargets + 1) * sizeof *targets);
                if (parse_url(url, &targets[ntargets]) < 0) {
                    error_line("unsupported url %s (ws://IPv4:port/path only)", url);
                    continue;
                }
                ntargets++;
                if (!p)
                    break;
            }
        }
        sources = NULL;
        nsources = 0;
        p = json_value(line, "sources");
        if (p && *p == '[') {
            p++;
            for (;;) {
                while (*p == ' ' || *p == ',')
                    p++;
                if (*p != '"')
                    break;
                char addr[64];
                p = json_string(p, addr, sizeof addr);
                sources = xrealloc(sources, (nsources + 1) * sizeof *sources);
                if (inet_pton(AF_INET, addr, &sources[nsources]) != 1)
                    error_line("unsupported source %s (IPv4 only)", addr);
                else
                    nsources++;
                if (!p)
                    break;
            }
        }
        v = json_value(line, "batch");
        batch = v ? (int)strtol(v, NULL, 10) : BATCH;
        if (batch <= 0)
            batch = BATCH;
        if (ntargets == 0 || n <= 0) {
            if (ntargets == 0)
                error_line("connect: no usable url");
            answer("{\"ok\":\"ready\",\"n\":%zu}", n_ready);
            return;
        }
        to_open = (size_t)n;
        pending = (size_t)n;
        opened_in_cmd = 0;
        connect_active = 1;
        next_batch = mono_ms();  /* the loop opens the first batch right away */
    } else if (strcmp(cmd, "stall") == 0) {
        char url[600];
        json_string(json_value(line, "url"), url, sizeof url);
        json_string(json_value(line, "channel"), channel, sizeof channel);
        struct target *tg = malloc(sizeof *tg);
        if (!tg || parse_url(url, tg) < 0) {
            error_line("unsupported url %s (ws://IPv4:port/path only)", url);
            free(tg);
            return;
        }
        conn_open(tg, -1, 1);
    } else if (strcmp(cmd, "reset") == 0) {
        nlat = 0;
        count = 0;
        memset(per_sock, 0, nper * sizeof *per_sock);
        first_t = last_t = 0;
        answer("{\"ok\":\"reset\"}");
    } else if (strcmp(cmd, "report") == 0) {
        qsort(lat, nlat, sizeof *lat, cmp_double);
        char p50[32], p99[32], mx[32], mn_s[32], mx_s[32];
        size_t i99 = (size_t)(0.99 * (double)nlat);
        num(p50, sizeof p50, nlat > 0, nlat ? lat[nlat / 2] : 0);
        num(p99, sizeof p99, nlat > 0, nlat ? lat[i99 < nlat ? i99 : nlat - 1] : 0);
        num(mx, sizeof mx, nlat > 0, nlat ? lat[nlat - 1] : 0);
        long long lo = 0, hi = 0;
        for (size_t i = 0; i < nper; i++) {
            if (i == 0 || per_sock[i] < lo)
                lo = per_sock[i];
            if (i == 0 || per_sock[i] > hi)
                hi = per_sock[i];
        }
        if (nper) {
            snprintf(mn_s, sizeof mn_s, "%lld", lo);
            snprintf(mx_s, sizeof mx_s, "%lld", hi);
        } else {
            strcpy(mn_s, "null");
            strcpy(mx_s, "null");
        }
        answer("{\"count\":%lld,\"p50\":%s,\"p99\":%s,\"max\":%s,\"min_per_sock\":%s,\"max_per_sock\":%s,"
               "\"first\":%.3f,\"last\":%.3f}",
               count, p50, p99, mx, mn_s, mx_s, first_t, last_t);
    } else if (strcmp(cmd, "close") == 0) {
        shutdown_all();
        answer("{\"ok\":\"closed\"}");
        exit(0);
    } else {
        error_line("unknown command %s", cmd);
    }
}

static void on_stdin(void)
{
    ssize_t r = read(0, inbuf + ninbuf, sizeof inbuf - 1 - ninbuf);
    if (r < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (r <= 0) {  /* EOF: the driver is gone */
        shutdown_all();
        exit(0);
    }
    ninbuf += (size_t)r;
    char *start = inbuf, *nl;
    while ((nl = memchr(start, '\n', ninbuf - (size_t)(start - inbuf)))) {
        *nl = 0;
        if (nl > start)
            command(start);
        start = nl + 1;
    }
    ninbuf -= (size_t)(start - inbuf);
    memmove(inbuf, start, ninbuf);
    if (ninbuf == sizeof inbuf - 1) {
        error_line("command line too long");
        ninbuf = 0;
    }
}

static void open_batch(void)
{
    for (int k = 0; k < batch && to_open > 0; k++, to_open--) {
        if (nper == capper) {
            capper = capper ? capper * 2 : 1024;
            per_sock = xrealloc(per_sock, capper * sizeof *per_sock);
        }
        per_sock[nper] = 0;
        next_src = nsources ? &sources[(opened_in_cmd / ntargets) % nsources] : NULL;
        conn_open(&targets[opened_in_cmd % ntargets], (int)nper, 0);
        next_src = NULL;
        nper++;
        opened_in_cmd++;
    }
    next_batch = mono_ms() + BATCH_GAP_MS;
    check_ready();
}

int main(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    signal(SIGPIPE, SIG_IGN);

    ep = epoll_create1(EPOLL_CLOEXEC);
    if (ep < 0) {
        perror("epoll_create1");
        return 2;
    }
    struct epoll_event sev = {.events = EPOLLIN, .data.ptr = &stdin_tag};
    if (epoll_ctl(ep, EPOLL_CTL_ADD, 0, &sev) < 0) {
        perror("load: stdin must be a pipe or a terminal");
        return 2;
    }

    struct epoll_event evs[512];
    for (;;) {
        int timeout = -1;
        if (to_open > 0) {
            double d = next_batch - mono_ms();
            timeout = d <= 0 ? 0 : (int)d + 1;
        }
        int n = epoll_wait(ep, evs, 512, timeout);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            perror("epoll_wait");
            return 2;
        }
        for (int i = 0; i < n; i++) {
            if (evs[i].data.ptr == &stdin_tag) {
                on_stdin();
                continue;
            }
            struct conn *c = evs[i].data.ptr;
            uint32_t e = evs[i].events;
            if (c->state == S_CLOSED)
                continue;
            if (c->state == S_CONNECTING) {
                if (e & (EPOLLOUT | EPOLLERR | EPOLLHUP))
                    on_writable(c);
                continue;
            }
            if ((e & EPOLLOUT) && c->state != S_CLOSED)
                on_writable(c);
            /* A stalled socket is read only up to its handshake answer. */
            if ((e & (EPOLLIN | EPOLLERR | EPOLLHUP)) && c->state == S_HANDSHAKE)
                on_readable(c);
            else if ((e & (EPOLLIN | EPOLLERR | EPOLLHUP)) && c->state == S_OPEN && !c->stall)
                on_readable(c);
        }
        if (to_open > 0 && mono_ms() >= next_batch)
            open_batch();
    }
}
