// A Go program whose CPU time splits 1:3 between quarter() and
// threeQuarters() (the same loop, three times as long), profiled by Go's
// own runtime/pprof into the file named by its argument: the input of
// tests/cases/pprof-go-runtime.sh. The loop's step, mix(), is inlined into
// spin(): its samples' locations have two lines.
package main

import (
	"os"
	"runtime/pprof"
)

var sink uint64

func mix(x uint64, i int) uint64 {
	return x*6364136223846793005 + uint64(i)
}

//go:noinline
func spin(n int) {
	for i := 0; i < n; i++ {
		sink = mix(sink, i)
	}
}

//go:noinline
func quarter(n int) { spin(n) }

//go:noinline
func threeQuarters(n int) { spin(3 * n) }

func main() {
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		panic(err)
	}
	for i := 0; i < 40; i++ {
		quarter(10000000)
		threeQuarters(10000000)
	}
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		panic(err)
	}
}
