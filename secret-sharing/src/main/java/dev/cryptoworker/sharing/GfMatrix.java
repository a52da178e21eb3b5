package dev.cryptoworker.sharing;

import java.util.Arrays;

/**
 * A small immutable matrix over GF(2^8): the encoding maps of the schemes (shares = matrix times
 * inputs), their products, restrictions to the rows of the shares at hand, and inverses.
 */
final class GfMatrix {
  private final int[][] a;

  private GfMatrix(int[][] a) {
    this.a = a;
  }

  static GfMatrix of(int[][] rows) {
    int[][] copy = new int[rows.length][];
    for (int i = 0; i < rows.length; i++) {
      copy[i] = rows[i].clone();
    }
    return new GfMatrix(copy);
  }

  static GfMatrix identity(int n) {
    int[][] a = new int[n][n];
    for (int i = 0; i < n; i++) {
      a[i][i] = 1;
    }
    return new GfMatrix(a);
  }

  /**
   * The map from a polynomial's values at {@code from} (degree below {@code from.length}) to its
   * values at {@code to}: Lagrange interpolation. Points must be distinct within {@code from}.
   */
  static GfMatrix lagrange(int[] from, int[] to) {
    int[][] a = new int[to.length][from.length];
    for (int i = 0; i < to.length; i++) {
      for (int j = 0; j < from.length; j++) {
        int numerator = 1;
        int denominator = 1;
        for (int m = 0; m < from.length; m++) {
          if (m != j) {
            numerator = Gf256.mul(numerator, to[i] ^ from[m]);
            denominator = Gf256.mul(denominator, from[j] ^ from[m]);
          }
        }
        a[i][j] = Gf256.div(numerator, denominator);
      }
    }
    return new GfMatrix(a);
  }

  int rows() {
    return a.length;
  }

  int columns() {
    return a.length == 0 ? 0 : a[0].length;
  }

  int get(int row, int column) {
    return a[row][column];
  }

  int[] row(int row) {
    return a[row].clone();
  }

  GfMatrix times(GfMatrix b) {
    if (columns() != b.rows()) {
      throw new IllegalArgumentException(rows() + "x" + columns() + " times " + b.rows() + "x" + b.columns());
    }
    int[][] c = new int[rows()][b.columns()];
    for (int i = 0; i < rows(); i++) {
      for (int j = 0; j < b.columns(); j++) {
        int sum = 0;
        for (int m = 0; m < columns(); m++) {
          sum ^= Gf256.mul(a[i][m], b.a[m][j]);
        }
        c[i][j] = sum;
      }
    }
    return new GfMatrix(c);
  }

  /** The rows {@code indexes}, in that order. */
  GfMatrix rows(int[] indexes) {
    int[][] c = new int[indexes.length][];
    for (int i = 0; i < indexes.length; i++) {
      c[i] = a[indexes[i]].clone();
    }
    return new GfMatrix(c);
  }

  /** The columns {@code [from, to)}. */
  GfMatrix columns(int from, int to) {
    int[][] c = new int[rows()][];
    for (int i = 0; i < rows(); i++) {
      c[i] = Arrays.copyOfRange(a[i], from, to);
    }
    return new GfMatrix(c);
  }

  /** This matrix above {@code below}. */
  GfMatrix stack(GfMatrix below) {
    int[][] c = new int[rows() + below.rows()][];
    for (int i = 0; i < rows(); i++) {
      c[i] = a[i].clone();
    }
    for (int i = 0; i < below.rows(); i++) {
      c[rows() + i] = below.a[i].clone();
    }
    return new GfMatrix(c);
  }

  /**
   * The inverse, by Gauss-Jordan elimination.
   *
   * @throws ArithmeticException if the matrix is not square or singular
   */
  GfMatrix inverse() {
    int n = rows();
    if (columns() != n) {
      throw new ArithmeticException("only square matrices have inverses: " + n + "x" + columns());
    }
    int[][] m = new int[n][2 * n];
    for (int i = 0; i < n; i++) {
      System.arraycopy(a[i], 0, m[i], 0, n);
      m[i][n + i] = 1;
    }
    for (int col = 0; col < n; col++) {
      int pivot = col;
      while (pivot < n && m[pivot][col] == 0) {
        pivot++;
      }
      if (pivot == n) {
        throw new ArithmeticException("singular matrix");
      }
      int[] t = m[pivot];
      m[pivot] = m[col];
      m[col] = t;
      int scale = Gf256.inverse(m[col][col]);
      for (int j = 0; j < 2 * n; j++) {
        m[col][j] = Gf256.mul(m[col][j], scale);
      }
      for (int i = 0; i < n; i++) {
        if (i != col && m[i][col] != 0) {
          int f = m[i][col];
          for (int j = 0; j < 2 * n; j++) {
            m[i][j] ^= Gf256.mul(f, m[col][j]);
          }
        }
      }
    }
    int[][] inv = new int[n][];
    for (int i = 0; i < n; i++) {
      inv[i] = Arrays.copyOfRange(m[i], n, 2 * n);
    }
    return new GfMatrix(inv);
  }

  /** Whether the matrix is invertible. */
  boolean isInvertible() {
    try {
      inverse();
      return true;
    } catch (ArithmeticException e) {
      return false;
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GfMatrix m && Arrays.deepEquals(a, m.a);
  }

  @Override
  public int hashCode() {
    return Arrays.deepHashCode(a);
  }

  @Override
  public String toString() {
    return Arrays.deepToString(a);
  }
}
