// The control: sim's include path does find model/, which sim links.
#include "model/model.hpp"
int main() { return 0; }
