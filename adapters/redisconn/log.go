package redisconn

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/redis/go-redis/v9"
)

// LogTo sends the Redis library's own log lines (a pool that cannot
// dial, a connection dropped) to logger as warnings "redis client",
// instead of plain lines on standard error beside the programs' JSON.
// The library has one logger per process: the last call wins.
func LogTo(logger *slog.Logger) { redis.SetLogger(printer{logger}) }

// printer is the library's logging interface over a slog.Logger.
type printer struct{ l *slog.Logger }

func (p printer) Printf(ctx context.Context, format string, v ...any) {
	msg := strings.TrimSpace(strings.TrimPrefix(fmt.Sprintf(format, v...), "redis: "))
	p.l.WarnContext(ctx, "redis client", slog.String("message", msg))
}
