/* Hot: a Java workload whose profile is known, for record's JVM tests. Its
 * main thread spends a quarter of its CPU time in a() and three quarters in
 * b() (the same loop, run a third as long in a(); each called once a round,
 * so that the JIT compiles both as soon), for SECONDS of wall time, then
 * prints "done". A round's length varies at random: rounds of one length
 * kept in step with a 997 Hz timer for seconds at a time, and 3-second
 * recordings found a() in 18 to 33% of the samples, where the program's
 * own clock said 25.0% each second. The methods are big enough loops that
 * the JIT compiles each on its own rather than inline it into main().
 * javac -d DIR Hot.java; java -XX:+PreserveFramePointer -cp DIR Hot SECONDS */
public class Hot {
    static double sink;

    static double a(int n) {
        double x = 0;
        for (int i = 0; i < n; i++)
            x += Math.sqrt(i ^ 0x5bd1) * 1.0000001;
        return x;
    }

    static double b(int n) {
        double x = 0;
        for (int i = 0; i < n; i++)
            x += Math.sqrt(i ^ 0x1e35) * 0.9999999;
        return x;
    }

    public static void main(String[] args) {
        long end = System.nanoTime() + (long) (Double.parseDouble(args[0]) * 1e9);
        java.util.Random lengths = new java.util.Random(7);
        while (System.nanoTime() < end) {
            int n = 100000 + lengths.nextInt(200000);
            sink += a(n);
            sink += b(3 * n);
        }
        System.out.println(sink > 0 ? "done" : "?");
    }
}
