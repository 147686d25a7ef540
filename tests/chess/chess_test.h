/* Check counting for the chess test programs: the shared harness. */
#ifndef UCIZIP_CHESS_TEST_H
#define UCIZIP_CHESS_TEST_H

#include "../common/uz_test.h"

#endif
